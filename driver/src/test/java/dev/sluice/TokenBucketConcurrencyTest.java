package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.limit.Bucket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/** Many threads at once: the bucket hands out exactly what it holds, never more. */
class TokenBucketConcurrencyTest {
  private static final int THREADS = 8;

  @Test
  void tryAcquire_manyThreadsOnAStoppedClock_admitExactlyTheBurst() throws Exception {
    FakeTicker ticker = new FakeTicker();
    Bucket bucket = Bucket.of(1000, 500, ticker);
    assertThat(hammer(bucket, 20_000)).isEqualTo(500);

    ticker.advance(Duration.ofMillis(137)); // exactly 137 more permits
    assertThat(hammer(bucket, 20_000)).isEqualTo(137);
  }

  @Test
  void forceAcquire_manyThreads_eachChargeCountsExactlyOnce() throws Exception {
    FakeTicker ticker = new FakeTicker();
    Bucket bucket = Bucket.of(1000, 10, ticker);
    runOnThreads(() -> {
      for (int i = 0; i < 1000; i++) {
        bucket.forceAcquire(1);
      }
    });
    // 8,000 charged into a bucket of 10: 7,990 permits of debt, repaid at 1/ms
    ticker.advance(Duration.ofMillis(7990));
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofMillis(1));
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  void setRate_whileThreadsAcquire_neverExceedsTheFasterRateOrHandsOutAFreshBurst()
      throws Exception {
    FakeTicker ticker = new FakeTicker();
    Bucket bucket = Bucket.of(1000, 100, ticker);
    AtomicBoolean stop = new AtomicBoolean();
    LongAdder admitted = new LongAdder();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread thread = new Thread(() -> {
        while (!stop.get()) {
          if (bucket.tryAcquire()) {
            admitted.increment();
          }
        }
      });
      thread.start();
      threads.add(thread);
    }
    long steps = 0;
    for (int i = 0; i < 2000; i++) {
      bucket.setRate(i % 2 == 0 ? 2000 : 500);
      ticker.advance(Duration.ofMillis(1));
      steps++;
    }
    stop.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    // at most the burst plus 2 permits per elapsed millisecond (the faster of the two rates)
    assertThat(admitted.sum()).isLessThanOrEqualTo(100 + 2 * steps);
  }

  /** The share's changes (issue 10, item 3): rate and burst together, now and then to zero. */
  @Test
  void setRateAndBurst_whileThreadsAcquire_neverRefillsTheBucket() throws Exception {
    FakeTicker ticker = new FakeTicker();
    Bucket bucket = Bucket.of(1000, 100, ticker);
    AtomicBoolean stop = new AtomicBoolean();
    LongAdder admitted = new LongAdder();
    LongAdder attempts = new LongAdder();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread thread = new Thread(() -> {
        while (!stop.get()) {
          if (bucket.tryAcquire()) {
            admitted.increment();
          }
          attempts.increment();
        }
      });
      thread.start();
      threads.add(thread);
    }
    long steps = 0;
    for (int i = 0; i < 2000; i++) {
      switch (i % 3) {
        case 0: bucket.setRate(2000, 200); break;
        case 1: bucket.setRate(500, 5); break;
        default: bucket.setRate(0, 0); break;
      }
      ticker.advance(Duration.ofMillis(1));
      steps++;
      long seen = attempts.sum();
      long waitUntil = System.nanoTime() + Duration.ofSeconds(1).toNanos();
      while (attempts.sum() < seen + 2L * THREADS && System.nanoTime() - waitUntil < 0) {
        Thread.onSpinWait(); // let the threads try each state
      }
    }
    stop.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    // the first burst plus 2 permits per elapsed millisecond: a bigger burst is never handed out;
    // about 2.5 permits come free per 3 steps (2 at 2000/s, 0.5 at 500/s, none at zero)
    assertThat(admitted.sum()).isLessThanOrEqualTo(100 + 2 * steps)
        .isGreaterThan(steps / 3);
  }

  @Test
  void tryAcquire_manyThreadsOnTheRealClock_stayWithinRateTimesElapsedPlusBurst()
      throws Exception {
    double rate = 20_000;
    int burst = 200;
    long start = System.nanoTime();
    TokenBucket bucket = TokenBucket.of(rate, burst);
    LongAdder admitted = new LongAdder();
    long deadline = start + Duration.ofMillis(800).toNanos();
    // the milliseconds in which some thread asked: a loaded machine may run none of them for
    // long stretches, and a bucket owes permits only while it is asked (plus one burst)
    boolean[] asked = new boolean[1_000];
    runOnThreads(() -> {
      for (long now = System.nanoTime(); now - deadline < 0; now = System.nanoTime()) {
        asked[(int) ((now - start) / 1_000_000)] = true; // a benign race: all write true
        if (bucket.tryAcquire()) {
          admitted.increment();
        }
      }
    });
    double elapsedSeconds = (System.nanoTime() - start) / 1e9;
    double askedSeconds = millisAsked(asked) / 1e3; // read after join: every write is seen
    double ceiling = rate * elapsedSeconds + burst;
    assertThat((double) admitted.sum())
        .as("admitted over %.3f s at %.0f/s, asked in %.3f s of it", elapsedSeconds, rate,
            askedSeconds)
        .isLessThanOrEqualTo(ceiling)
        .isGreaterThan(0.6 * rate * askedSeconds); // catches half the rate
  }

  private static int millisAsked(boolean[] asked) {
    int count = 0;
    for (boolean b : asked) {
      count += b ? 1 : 0;
    }
    return count;
  }

  private static long hammer(Bucket bucket, int attemptsPerThread) throws Exception {
    LongAdder admitted = new LongAdder();
    runOnThreads(() -> {
      for (int i = 0; i < attemptsPerThread; i++) {
        if (bucket.tryAcquire()) {
          admitted.increment();
        }
      }
    });
    return admitted.sum();
  }

  private static void runOnThreads(Runnable body) throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread thread = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        body.run();
      });
      thread.start();
      threads.add(thread);
    }
    go.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
  }
}
