package dev.sluice.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator's list of gated methods cannot silently lose a gate: a method both written by
 * hand and listed in {@code GATED}, or an entry that names no JDBC method, fails the build. (That
 * every listed method is gated in every statement class is {@code GatingTest}'s.) Each case runs
 * {@code driver/src/build/java/GenerateWrappers.java} as the build does, on an altered copy.
 */
class GenerateWrappersTest {
  private static final Path GENERATOR = Path.of("src/build/java/GenerateWrappers.java");
  private static final Path WRAPPERS =
      Path.of("src/main/java/dev/sluice/internal/jdbc/ConnectionWrapper.java");

  @Test
  void gatedMethodAlsoWrittenByHand_failsTheBuild(@TempDir Path dir) throws Exception {
    try (var wrappers = Files.list(WRAPPERS.getParent())) { // the hand-written files, all of them
      for (Path file : wrappers.toList()) {
        Files.copy(file, dir.resolve(file.getFileName().toString()));
      }
    }
    Path statement = dir.resolve("StatementWrapper.java");
    String source = Files.readString(statement);
    String anchor = "  // --- the gated calls: report before";
    assertThat(source).contains(anchor);
    Files.writeString(statement, source.replace(anchor,
        "  @Override\n  public final int executeUpdate(String sql) throws SQLException {\n"
            + "    return delegate.executeUpdate(sql);\n  }\n\n" + anchor));
    Path altered = dir.resolve("ConnectionWrapper.java");

    Result run = generate(GENERATOR, altered, dir.resolve("out"));

    assertThat(run.exit).isNotZero();
    assertThat(run.output).contains("StatementWrapper.executeUpdate(String) is written by hand"
        + " and listed in GATED: it must be one or the other");
  }

  @Test
  void gateNamingNoMethod_failsTheBuild(@TempDir Path dir) throws Exception {
    String generator = Files.readString(GENERATOR);
    String entry = "new Gate(\"java.sql.Statement\", \"executeLargeBatch\", Sql.NONE)";
    assertThat(generator).contains(entry);
    Path altered = Files.writeString(dir.resolve("GenerateWrappers.java"),
        generator.replace(entry, entry.replace("executeLargeBatch", "executeLargeBatches")));

    Result run = generate(altered, WRAPPERS, dir.resolve("out"));

    assertThat(run.exit).isNotZero();
    assertThat(run.output).contains("Gate[iface=java.sql.Statement, name=executeLargeBatches,"
        + " sql=NONE] must name methods that java.sql.Statement declares, but matched none");
  }

  @Test
  void unalteredFiles_generate(@TempDir Path dir) throws Exception {
    Result run = generate(GENERATOR, WRAPPERS, dir.resolve("out"));

    assertThat(run.exit).as(run.output).isZero();
    String statement = Files.readString(
        dir.resolve("out/dev/sluice/internal/jdbc/GeneratedStatement.java"));
    assertThat(statement).contains("int held = connection.beforeStatement(a0);")
        .contains("public long[] executeLargeBatch()");
  }

  private record Result(int exit, String output) {}

  private static Result generate(Path generator, Path wrappers, Path out)
      throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process = new ProcessBuilder(java.toString(), generator.toString(),
        wrappers.toString(), out.toString()).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("the generator finished").isTrue();
    return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
  }
}
