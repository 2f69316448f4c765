package dev.sluice.it.support;

import dev.sluice.RateLimitExceededException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/** Walks cause chains, as an application's error handler would. */
public final class Causes {
  private Causes() {}

  /** {@code thrown} and its causes, outermost first; a cycle ends the walk. */
  public static List<Throwable> chain(Throwable thrown) {
    List<Throwable> chain = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }

  /** Whether Sluice's rejection is somewhere in the cause chain. */
  public static boolean isRejection(Throwable thrown) {
    return find(thrown, RateLimitExceededException.class) != null;
  }

  /** The first throwable of type {@code type} in the chain, or {@code null}. */
  public static <T extends Throwable> T find(Throwable thrown, Class<T> type) {
    for (Throwable t : chain(thrown)) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  /** The chain's class names, outermost first: for messages and notes. */
  public static String describe(Throwable thrown) {
    StringBuilder b = new StringBuilder();
    for (Throwable t : chain(thrown)) {
      b.append(b.length() == 0 ? "" : " <- ").append(t.getClass().getName());
    }
    return b.toString();
  }
}
