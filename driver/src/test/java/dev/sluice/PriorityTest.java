package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.limit.Limiter;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The per-thread priority: set for a block, restored after it, however it ends. */
class PriorityTest {

  @Test
  void current_outsideAnyBlock_isNormalAndUnset() {
    assertThat(Priority.current()).isEqualTo(Priority.NORMAL);
    assertThat(Priority.ofCode()).isNull();
  }

  @Test
  void run_nested_innermostWinsAndEachLevelIsRestored() {
    AtomicReference<Priority> inner = new AtomicReference<>();
    AtomicReference<Priority> afterInner = new AtomicReference<>();
    Priority.SHEDDABLE.run(() -> {
      Priority.CRITICAL.run(() -> inner.set(Priority.current()));
      afterInner.set(Priority.current());
    });
    assertThat(inner.get()).isEqualTo(Priority.CRITICAL);
    assertThat(afterInner.get()).isEqualTo(Priority.SHEDDABLE);
    assertThat(Priority.ofCode()).as("nothing left on a pooled thread").isNull();
  }

  @Test
  void call_returnsTheValueAndRestoresWhenItThrows() throws Exception {
    assertThat(Priority.CRITICAL.call(Priority::current)).isEqualTo(Priority.CRITICAL);
    assertThatThrownBy(() -> Priority.NORMAL.call(() -> Priority.SHEDDABLE.call(() -> {
      throw new java.io.IOException("boom");
    }))).isInstanceOf(java.io.IOException.class).hasMessage("boom");
    assertThat(Priority.ofCode()).isNull();
  }

  @Test
  void run_throws_restoresThePrevious() {
    Priority.SHEDDABLE.run(() -> {
      assertThatThrownBy(() -> Priority.CRITICAL.run(() -> {
        throw new IllegalStateException("boom");
      })).hasMessage("boom");
      assertThat(Priority.current()).isEqualTo(Priority.SHEDDABLE);
    });
  }

  @Test
  void callAndRun_null_throwAClearNullPointerException() {
    assertThatThrownBy(() -> Priority.CRITICAL.call((Callable<Object>) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("Priority.CRITICAL.call(action): action is null");
    assertThatThrownBy(() -> Priority.SHEDDABLE.run(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("Priority.SHEDDABLE.run(action): action is null");
  }

  @Test
  void run_anotherThread_seesItsOwnNotTheBlocksPriority() throws Exception {
    AtomicReference<Priority> seen = new AtomicReference<>();
    Priority.CRITICAL.run(() -> {
      Thread other = new Thread(() -> seen.set(Priority.current()));
      other.start();
      try {
        other.join();
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    });
    assertThat(seen.get()).isEqualTo(Priority.NORMAL);
  }
}
