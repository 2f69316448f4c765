package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

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

  @Test
  void run_drillWithABadFlag_returnsTheDrillsExitCodeTwo() throws Exception {
    List<String> command = Launcher.command(new String[] {"-classpath", "%classpath",
        OutageDrill.class.getName(), "--load", "lots"}, System.getProperty("java.class.path"));

    assertThat(Launcher.run(command)).isEqualTo(2);
  }

  @Test
  void run_drillHelp_returnsZero() throws Exception {
    List<String> command = Launcher.command(new String[] {"-classpath", "%classpath",
        OutageDrill.class.getName(), "--help"}, System.getProperty("java.class.path"));

    assertThat(Launcher.run(command)).isZero();
  }
}
