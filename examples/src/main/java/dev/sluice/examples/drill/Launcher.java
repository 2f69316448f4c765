package dev.sluice.examples.drill;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Runs an example in a JVM of its own and exits with its exit code: what
 * {@code mvn -pl examples -am compile exec:java} runs.
 *
 * <p>Why not {@code exec:exec}, which forks too: it turns every non-zero exit into a failure of
 * Maven's own — exit code 1 and a stack trace of Maven's, printed even under {@code -q} — so the
 * drill's "exit 2 and one line" for a bad flag never reached the user. {@code exec:java} runs its
 * main class inside Maven's JVM, where {@code System.exit(n)} is Maven's exit code; this class is
 * that main class, and it only forks the example, waits, and passes the code on. On success it
 * returns, and Maven finishes as usual.
 *
 * <p>Its arguments are a {@code java} command line — JVM options, the main class, the program's
 * arguments — the same line {@code exec:exec} runs (the pom gives both one
 * {@code commandlineArgs}), with {@code %classpath} replaced by the classpath Maven gave this
 * class.
 *
 * <p>Not threadsafe: one thread calls {@link #main}.
 */
public final class Launcher {
  private Launcher() {}

  /**
   * Forks the example and exits with its exit code when it is not 0.
   *
   * @param args a {@code java} command line without the {@code java}
   * @throws IOException if the JVM cannot be started
   * @throws InterruptedException if interrupted while the example runs (the example is stopped)
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    int code = run(new ProcessBuilder(command(args, classpath())).inheritIO());
    if (code != 0) {
      System.exit(code);
    }
  }

  /** {@code java} from this JVM, then the arguments with {@code %classpath} filled in. */
  static List<String> command(String[] args, String classpath) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : args) {
      command.add(arg.equals("%classpath") ? classpath : arg);
    }
    return command;
  }

  /** Starts the example, waits for it and returns its exit code. */
  static int run(ProcessBuilder builder) throws IOException, InterruptedException {
    Process example = builder.start();
    // Ctrl-C reaches both JVMs; anything else that ends Maven must not leave the example running
    // (destroying a process that has exited does nothing)
    Runtime.getRuntime().addShutdownHook(new Thread(example::destroy, "example-stopper"));
    try {
      return example.waitFor();
    } catch (InterruptedException e) {
      example.destroy();
      throw e;
    }
  }

  /**
   * The classpath exec:java built for this class: the module's classes and its runtime
   * dependencies, which its class loader holds as URLs.
   */
  private static String classpath() {
    if (!(Launcher.class.getClassLoader() instanceof URLClassLoader loader)) {
      return System.getProperty("java.class.path");
    }
    StringJoiner path = new StringJoiner(File.pathSeparator);
    for (URL url : loader.getURLs()) {
      try {
        path.add(Path.of(url.toURI()).toString());
      } catch (URISyntaxException | IllegalArgumentException e) {
        path.add(url.getPath()); // not a file: URL; java will say what it cannot read
      }
    }
    return path.toString();
  }
}
