package dev.sluice.internal.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.Priority;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

class ConcurrencyGateTest {
  private static final int THREADS = 16;

  @Test
  void tryAcquire_upToTheLimit_admitsThenRefuses() {
    ConcurrencyGate gate = new ConcurrencyGate(3);
    assertThat(gate.tryAcquire()).isTrue();
    assertThat(gate.tryAcquire()).isTrue();
    assertThat(gate.tryAcquire()).isTrue();
    assertThat(gate.tryAcquire()).isFalse();
    assertThat(gate.inFlight()).isEqualTo(3);

    gate.release();
    assertThat(gate.tryAcquire()).isTrue();
    assertThat(gate.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquire_byPriority_eachSeesItsPartOfTheCap_recomputedWhenTheCapChanges() {
    ConcurrencyGate gate = new ConcurrencyGate(10, 0.2);
    assertThat(List.of(gate.limit(Priority.CRITICAL), gate.limit(Priority.NORMAL),
        gate.limit(Priority.SHEDDABLE))).containsExactly(10, 8, 6);
    for (int i = 0; i < 6; i++) {
      assertThat(gate.tryAcquire(Priority.SHEDDABLE)).isTrue();
    }
    assertThat(gate.tryAcquire(Priority.SHEDDABLE)).isFalse();
    assertThat(gate.tryAcquire(Priority.NORMAL)).isTrue();
    assertThat(gate.tryAcquire(Priority.NORMAL)).isTrue();
    assertThat(gate.tryAcquire(Priority.NORMAL)).isFalse();
    assertThat(gate.tryAcquire(Priority.CRITICAL)).isTrue();
    assertThat(gate.tryAcquire(Priority.CRITICAL)).isTrue();
    assertThat(gate.tryAcquire(Priority.CRITICAL)).isFalse();

    gate.setLimit(2);

    assertThat(List.of(gate.limit(Priority.CRITICAL), gate.limit(Priority.NORMAL),
        gate.limit(Priority.SHEDDABLE))).containsExactly(2, 2, 1);
    assertThat(new ConcurrencyGate(3, 0).limit(Priority.SHEDDABLE)).isEqualTo(3);
  }

  @Test
  void takeSaturated_afterFillingOrRefusing_isTrueOnceThenClears() {
    ConcurrencyGate gate = new ConcurrencyGate(2);
    gate.tryAcquire();
    assertThat(gate.takeSaturated()).isFalse();
    gate.tryAcquire(); // fills it
    assertThat(gate.takeSaturated()).isTrue();
    assertThat(gate.takeSaturated()).isFalse();
    gate.tryAcquire(); // refused
    assertThat(gate.takeSaturated()).isTrue();
  }

  @Test
  void release_withNothingInFlight_throwsAndLeavesTheCountAtZero() {
    ConcurrencyGate gate = new ConcurrencyGate(1);
    gate.tryAcquire();
    gate.release();

    IllegalStateException e = assertThrows(IllegalStateException.class, gate::release);

    assertThat(e).hasMessageContaining("release() without a matching tryAcquire()");
    assertThat(gate.inFlight()).isZero();
    assertThat(gate.tryAcquire()).isTrue();
    assertThat(gate.tryAcquire()).isFalse();
  }

  @Test
  void setLimit_belowWhatIsInFlight_keepsThemAndAdmitsOnlyOnceBelowTheNewLimit() {
    ConcurrencyGate gate = new ConcurrencyGate(4);
    for (int i = 0; i < 4; i++) {
      gate.tryAcquire();
    }
    gate.setLimit(2);
    assertThat(gate.inFlight()).isEqualTo(4);
    gate.release();
    gate.release();
    assertThat(gate.tryAcquire()).isFalse(); // 2 in flight, limit 2
    gate.release();
    assertThat(gate.tryAcquire()).isTrue();
  }

  @Test
  void setLimit_belowOne_namesTheValue() {
    ConcurrencyGate gate = new ConcurrencyGate(1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> gate.setLimit(0));
    assertThat(e).hasMessage("limit must be at least 1, but was 0");
    assertThat(gate.limit()).isEqualTo(1);
  }

  @Test
  void tryAcquireAndRelease_sixteenThreads_neverExceedTheLimitAndLoseNoRelease()
      throws Exception {
    ConcurrencyGate gate = new ConcurrencyGate(5);
    AtomicInteger holding = new AtomicInteger();
    AtomicInteger mostHeld = new AtomicInteger();
    LongAdder admitted = new LongAdder();
    LongAdder refused = new LongAdder();
    runOnThreads(() -> {
      for (int i = 0; i < 50_000; i++) {
        if (gate.tryAcquire()) {
          admitted.increment();
          mostHeld.accumulateAndGet(holding.incrementAndGet(), Math::max);
          holding.decrementAndGet();
          gate.release();
        } else {
          refused.increment();
        }
      }
    });
    assertThat(gate.inFlight()).isZero();
    assertThat(mostHeld.get()).isBetween(1, 5);
    assertThat(admitted.sum() + refused.sum()).isEqualTo(THREADS * 50_000L);
    assertThat(admitted.sum()).isPositive();
  }

  @Test
  void tryAcquire_sixteenThreadsWhileTheLimitMoves_neverExceedTheHighestLimit() throws Exception {
    ConcurrencyGate gate = new ConcurrencyGate(8);
    AtomicInteger holding = new AtomicInteger();
    AtomicInteger mostHeld = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    Thread mover = new Thread(() -> {
      for (int i = 0; !stop.get(); i++) {
        gate.setLimit(1 + i % 8);
      }
    });
    mover.start();
    try {
      runOnThreads(() -> {
        for (int i = 0; i < 50_000; i++) {
          if (gate.tryAcquire()) {
            mostHeld.accumulateAndGet(holding.incrementAndGet(), Math::max);
            holding.decrementAndGet();
            gate.release();
          }
        }
      });
    } finally {
      stop.set(true);
      mover.join();
    }
    assertThat(gate.inFlight()).isZero();
    assertThat(mostHeld.get()).isBetween(1, 8);
  }

  private static void runOnThreads(Runnable body) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread thread = new Thread(() -> {
        try {
          start.await();
          body.run();
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      });
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(failures).isEmpty();
  }
}
