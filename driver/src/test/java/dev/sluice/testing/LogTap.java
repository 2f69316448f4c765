package dev.sluice.testing;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Records the log lines written while it is open. The tests log through slf4j-simple, which
 * writes each line to whatever {@code System.err} is at that moment; the tap puts a copy of
 * {@code System.err} in its place and restores it on {@link #close()}. Filter the lines by
 * something unique to the test (its budget's name): background threads of other tests may log
 * meanwhile.
 */
public final class LogTap implements AutoCloseable {
  private final PrintStream original;
  private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

  private LogTap() {
    original = System.err;
    OutputStream both = new OutputStream() {
      @Override
      public void write(int b) {
        original.write(b);
        synchronized (copy) {
          copy.write(b);
        }
      }

      @Override
      public void write(byte[] bytes, int offset, int length) {
        original.write(bytes, offset, length);
        synchronized (copy) {
          copy.write(bytes, offset, length);
        }
      }
    };
    System.setErr(new PrintStream(both, true, StandardCharsets.UTF_8));
  }

  /** Starts recording. */
  public static LogTap open() {
    return new LogTap();
  }

  /** The lines recorded so far that contain {@code text}. */
  public List<String> lines(String text) {
    String all;
    synchronized (copy) {
      all = copy.toString(StandardCharsets.UTF_8);
    }
    return Arrays.stream(all.split("\\R")).filter(line -> line.contains(text))
        .collect(Collectors.toCollection(ArrayList::new));
  }

  /** The recorded lines of one level ({@code WARN}, {@code INFO}) that contain {@code text}. */
  public List<String> lines(String level, String text) {
    return lines(text).stream().filter(line -> line.contains(level + " "))
        .collect(Collectors.toList());
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
