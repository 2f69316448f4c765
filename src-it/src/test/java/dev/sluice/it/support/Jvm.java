package dev.sluice.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running a main class of the test classpath: its stdout read line by line, its
 * stderr kept in a file for the failure message, its stdin open for commands.
 *
 * <p>This class is not threadsafe.
 */
public final class Jvm implements AutoCloseable {
  private final String label;
  private final Process process;
  private final Path stderr;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();

  private Jvm(String label, Process process, Path stderr) {
    this.label = label;
    this.process = process;
    this.stderr = stderr;
    Thread reader = new Thread(this::pump, "sluice-it-stdout-" + label);
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code java [jvmArgs] -cp <test classpath> main [args]} with this JVM's java. */
  public static Jvm start(String label, Class<?> main, List<String> jvmArgs, List<String> args) {
    return start(label, Path.of(System.getProperty("java.home"), "bin", "java"), main, jvmArgs,
        args);
  }

  /** As {@link #start(String, Class, List, List)}, with the given {@code java} executable. */
  public static Jvm start(String label, Path java, Class<?> main, List<String> jvmArgs,
      List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.addAll(jvmArgs);
    command.add("-cp");
    command.add(classPath());
    command.add(main.getName());
    command.addAll(args);
    try {
      Path err = Files.createTempFile("sluice-it-" + label, ".err");
      Process process = new ProcessBuilder(command)
          .redirectError(err.toFile())
          .start();
      return new Jvm(label, process, err);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + label, e);
    }
  }

  /** The test classpath, whether or not Surefire hides it behind a manifest-only jar. */
  public static String classPath() {
    String surefire = System.getProperty("surefire.test.class.path");
    String path = surefire != null && !surefire.isBlank()
        ? surefire : System.getProperty("java.class.path");
    return path.trim();
  }

  private void pump() {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the process ended; what it said is in the queue
    }
  }

  /** Returns the next stdout line starting with {@code prefix}, skipping others. */
  public String awaitLine(String prefix, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        long left = deadline - System.nanoTime();
        String line = lines.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
        if (line == null) {
          throw new AssertionError(label + " said no '" + prefix + "' within "
              + timeout.toMillis() + " ms; alive=" + process.isAlive() + "; stdout " + seen
              + "; stderr:\n" + stderrTail());
        }
        seen.add(line);
        if (line.startsWith(prefix)) {
          return line;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Every stdout line read so far, including those not yet awaited. */
  public List<String> allLines() {
    lines.drainTo(seen);
    return List.copyOf(seen);
  }

  /** Writes one command line to the child's stdin. */
  public void send(String command) {
    try {
      Writer w = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      w.write(command + "\n");
      w.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("could not talk to " + label, e);
    }
  }

  /** Waits for the child to exit and returns its exit code. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(label + " did not exit within " + timeout.toMillis() + " ms");
    }
    return process.exitValue();
  }

  /** The last part of what the child wrote to stderr. */
  public String stderrTail() {
    try {
      String all = Files.readString(stderr);
      return all.length() > 4_000 ? all.substring(all.length() - 4_000) : all;
    } catch (IOException e) {
      return "(stderr unreadable: " + e + ")";
    }
  }

  public String label() {
    return label;
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
    try {
      Files.deleteIfExists(stderr);
    } catch (IOException e) {
      // a temporary file left behind
    }
  }
}
