package dev.sluice.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Keeps what the tests print, their logging above all, in files, and prints a test's output on
 * the console only when that test fails, just before Surefire reports the failure: {@code mvn
 * verify} stays short, and the log that explains a failure stands next to it.
 *
 * <p>Every byte written to {@code System.out} or {@code System.err} while a test class runs, by
 * the test or by any other thread, goes to {@code target/test-logs/<class>.log}, each test between
 * a {@code ----} line naming it and one giving its result. slf4j-simple and logback's console
 * appender write to whatever the stream is at that moment, so their lines land there too. A test
 * or class that fails prints what was written since it started (the last {@value #MOST_PRINTED}
 * bytes); one that is skipped prints why, in one line. {@code -Dsluice.test.output=console} turns all this off, to watch a test live.
 *
 * <p>Registered for every run by {@code META-INF/services/}{@link TestExecutionListener} in this
 * module's jar ({@code sluice-test-support}, never published), which every module that runs tests
 * takes as a test dependency.
 *
 * <p>This class is threadsafe: one lock guards the file and the buffer.
 */
public final class TestOutput implements TestExecutionListener {
  /** The most of a failed test's output printed on the console; all of it is in the file. */
  static final int MOST_PRINTED = 256 * 1024;

  private Sink sink;
  private PrintStream out;
  private PrintStream err;

  @Override
  public void testPlanExecutionStarted(TestPlan testPlan) {
    if ("console".equals(System.getProperty("sluice.test.output"))) {
      return;
    }
    out = System.out;
    err = System.err;
    sink = new Sink(Path.of(System.getProperty("basedir", "."), "target", "test-logs"), err);
    PrintStream toFile = new PrintStream(sink, true, StandardCharsets.UTF_8);
    System.setOut(toFile);
    System.setErr(toFile);
  }

  @Override
  public void testPlanExecutionFinished(TestPlan testPlan) {
    if (sink != null) {
      System.setOut(out);
      System.setErr(err);
      sink.close(); // a thread that kept the stream writes to the console from now on
      sink = null;
    }
  }

  @Override
  public void executionStarted(TestIdentifier test) {
    if (sink != null && (test.isTest() || isClass(test))) {
      className(test).ifPresent(sink::enterClass);
      sink.begin(name(test));
    }
  }

  @Override
  public void executionFinished(TestIdentifier test, TestExecutionResult result) {
    if (sink == null || !(test.isTest() || isClass(test))) {
      return;
    }
    String name = name(test);
    String output = sink.end(name, result.getStatus());
    if (result.getStatus() == TestExecutionResult.Status.FAILED) {
      err.printf("%n[test output] %s FAILED; what it printed (the whole class: %s):%n%s"
          + "[test output] end of %s%n", name, sink.file(), output, name);
    } else if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
      err.printf("[skipped] %s: %s%n", name, result.getThrowable().map(Throwable::getMessage)
          .orElse("aborted"));
    }
    err.flush();
  }

  private static boolean isClass(TestIdentifier test) {
    return test.getSource().filter(ClassSource.class::isInstance).isPresent();
  }

  /** The top-level class a test or class belongs to: nested classes share their outer's file. */
  private static Optional<String> className(TestIdentifier test) {
    Optional<TestSource> source = test.getSource();
    Optional<String> name = source.filter(MethodSource.class::isInstance)
        .map(s -> ((MethodSource) s).getClassName())
        .or(() -> source.filter(ClassSource.class::isInstance)
            .map(s -> ((ClassSource) s).getClassName()));
    return name.map(n -> n.contains("$") ? n.substring(0, n.indexOf('$')) : n);
  }

  private static String name(TestIdentifier test) {
    Optional<String> method = test.getSource().filter(MethodSource.class::isInstance)
        .map(s -> ((MethodSource) s).getClassName() + "." + test.getLegacyReportingName());
    return method.orElse(test.getLegacyReportingName());
  }

  /** The file of the class running now, and the output since the last test began. */
  private static final class Sink extends OutputStream {
    /** The classes whose file this JVM has begun: a later test plan appends to it. */
    private static final Set<String> OPENED = new HashSet<>();
    private final Path dir;
    private final PrintStream console;
    private final ByteArrayOutputStream sinceBegin = new ByteArrayOutputStream();
    private long dropped;
    private OutputStream file;
    private Path path;

    Sink(Path dir, PrintStream console) {
      this.dir = dir;
      this.console = console;
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create " + dir, e);
      }
      enterClass("before-the-tests");
    }

    synchronized void enterClass(String className) {
      Path next = dir.resolve(className + ".log");
      if (next.equals(path)) {
        return;
      }
      closeFile();
      try {
        file = Files.newOutputStream(next, StandardOpenOption.CREATE, OPENED.add(className)
            ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + next, e);
      }
      path = next;
    }

    synchronized Path file() {
      return path;
    }

    synchronized void begin(String name) {
      line("---- " + name);
      sinceBegin.reset();
      dropped = 0;
    }

    /** Notes the result in the file; returns the output since the last begin. */
    synchronized String end(String name, TestExecutionResult.Status status) {
      String output = (dropped > 0 ? "[the first " + dropped + " bytes are only in the file]"
          + System.lineSeparator() : "") + sinceBegin.toString(StandardCharsets.UTF_8);
      if (output.isEmpty()) {
        output = "[nothing]" + System.lineSeparator();
      }
      line("---- " + name + ": " + status);
      return output;
    }

    private void line(String text) {
      byte[] bytes = (text + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
      try {
        file.write(bytes);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + path, e);
      }
    }

    @Override
    public synchronized void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
      if (file == null) {
        console.write(bytes, offset, length);
        return;
      }
      try {
        file.write(bytes, offset, length);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + path, e);
      }
      sinceBegin.write(bytes, offset, length);
      if (sinceBegin.size() > 2 * MOST_PRINTED) {
        keepTheLast(MOST_PRINTED);
      }
    }

    private void keepTheLast(int count) {
      byte[] all = sinceBegin.toByteArray();
      dropped += all.length - count;
      sinceBegin.reset();
      sinceBegin.write(all, all.length - count, count);
    }

    @Override
    public synchronized void flush() {
      if (file == null) {
        console.flush();
        return;
      }
      try {
        file.flush();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + path, e);
      }
    }

    @Override
    public synchronized void close() {
      closeFile();
    }

    private void closeFile() {
      if (file != null) {
        try {
          file.close();
        } catch (IOException e) {
          throw new UncheckedIOException("cannot close " + path, e);
        }
        file = null;
      }
    }
  }
}
