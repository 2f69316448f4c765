package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher exec:java runs: it must hand the example's exit code to Maven unchanged. */
class LauncherTest {

  @Test
  void command_classpathPlaceholder_isReplacedAndTheRestKeptInOrder() {
    List<String> command = Launcher.command(new String[] {"-classpath", "%classpath", "-Da=b",
        "Main", "--load", "%classpath"}, "x.jar:y.jar");

    assertThat(command.get(0)).endsWith("java");
    assertThat(command.subList(1, command.size())).containsExactly("-classpath", "x.jar:y.jar",
        "-Da=b", "Main", "--load", "x.jar:y.jar");
  }

  @TempDir
  Path dir;

  /** Runs the drill in a JVM of its own, as exec:java does, its output going to {@code file}. */
  private static int drill(Path file, String... flags) throws Exception {
    String[] args = new String[3 + flags.length];
    args[0] = "-classpath";
    args[1] = "%classpath";
    args[2] = OutageDrill.class.getName();
    System.arraycopy(flags, 0, args, 3, flags.length);
    List<String> command = Launcher.command(args, System.getProperty("java.class.path"));
    return Launcher.run(new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(file.toFile()));
  }

  @Test
  void run_drillWithABadFlag_returnsTwoAndPrintsOneLine() throws Exception {
    Path output = dir.resolve("out.txt");

    int code = drill(output, "--load", "lots");

    assertThat(code).isEqualTo(2);
    assertThat(Files.readAllLines(output)).containsExactly("error: --load must be reads per second"
        + " from 1 to 200000, but was \"lots\" (--help lists the flags)");
  }

  @Test
  void run_drillHelp_returnsZero() throws Exception {
    Path output = dir.resolve("help.txt");

    assertThat(drill(output, "--help")).isZero();
    assertThat(Files.readString(output)).contains("Usage: mvn -q -pl examples -am compile"
        + " exec:java");
  }
}
