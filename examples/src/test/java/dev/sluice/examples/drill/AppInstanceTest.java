package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.BreakerFlag;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Reads on the calling thread against H2: what reaches the cache, and what fills it. */
class AppInstanceTest {

  private SimulatedDatabase db;

  @BeforeEach
  void startDatabase() throws Exception {
    db = SimulatedDatabase.start(1000, 0, 0);
  }

  @AfterEach
  void stopDatabase() throws Exception {
    db.close();
  }

  private static DrillOptions options(String... args) {
    return DrillOptions.parse(args, Path.of("target", "unused.svg"));
  }

  @Test
  void read_miss_isAnsweredByTheDatabaseAndStored() throws Exception {
    DrillOptions options = options("--instances", "1", "--threads", "1", "--keys", "1");
    long now = System.nanoTime();
    SimulatedCache cache = new SimulatedCache(1, 1, 30_000_000_000L, now);
    Recorder recorder = new Recorder(now, 1); // one slot: every event counts in it
    db.recordInto(recorder);
    BreakerFlag.Manual breaker = BreakerFlag.manual();

    try (AppInstance app = new AppInstance(db.url(), options, RunKind.WITHOUT_SLUICE, breaker,
        cache, recorder)) {
      app.read(System.nanoTime());
      app.read(System.nanoTime());
    }

    Recorder.Second s = recorder.second(0);
    assertThat(s.missed()).isEqualTo(1);
    assertThat(s.cache()).isEqualTo(1);
    assertThat(cache.size(System.nanoTime())).isEqualTo(1);
  }

  @Test
  void read_refusedBySluice_storesNothing() throws Exception {
    // 1 query/s and the breaker open: a few reads are answered, the rest refused at once
    DrillOptions options = options("--instances", "1", "--threads", "1", "--budget", "1",
        "--keys", "1000");
    long now = System.nanoTime();
    SimulatedCache cache = new SimulatedCache(1000, 0, 30_000_000_000L, now);
    Recorder recorder = new Recorder(now, 1); // one slot: every event counts in it
    db.recordInto(recorder);
    BreakerFlag.Manual breaker = BreakerFlag.manual();
    breaker.trip();
    long answered;

    try (AppInstance app = new AppInstance(db.url(), options, RunKind.WITH_SLUICE, breaker,
        cache, recorder)) {
      for (int i = 0; i < 200; i++) {
        app.read(System.nanoTime());
      }
      answered = recorder.second(0).database();
      assertThat(app.sluiceRejected()).isGreaterThan(150);
    }

    assertThat(answered).isBetween(1L, 10L);
    // the cache is up and every answered read stored its key; no refused one did
    assertThat(cache.size(System.nanoTime())).isBetween(1, (int) answered);
    assertThat(recorder.second(0).rejected()).isEqualTo(200 - answered);
  }

  @Test
  void read_answeringRun_answersWhatSluiceWouldRefuseAndStoresIt() throws Exception {
    // 20 queries/s, the breaker open and one key: once Sluice has refused a read, answers are
    // active, the next admitted read's result is kept, and the reads Sluice would refuse after
    // it are answered from that result instead
    DrillOptions options = options("--instances", "1", "--threads", "1", "--budget", "20",
        "--keys", "1");
    long now = System.nanoTime();
    SimulatedCache cache = new SimulatedCache(1, 0, 30_000_000_000L, now);
    Recorder recorder = new Recorder(now, 1);
    db.recordInto(recorder);
    BreakerFlag.Manual breaker = BreakerFlag.manual();
    breaker.trip();
    int reads = 0;

    try (AppInstance app = new AppInstance(db.url(), options, RunKind.SLUICE_ANSWERS, breaker,
        cache, recorder)) {
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (recorder.second(0).answered() < 20 && System.nanoTime() - deadline < 0) {
        app.read(System.nanoTime());
        reads++;
        LockSupport.parkNanos(2_000_000L);
      }
    }

    Recorder.Second s = recorder.second(0);
    assertThat(recorder.failed()).as(String.valueOf(recorder.firstFailure())).isZero();
    assertThat(s.answered()).isGreaterThanOrEqualTo(20);
    assertThat(s.served()).isEqualTo(s.database());
    assertThat(s.served() + s.answered() + s.rejected()).isEqualTo(reads);
    assertThat(s.fates().sluice()).isEqualTo(s.answered());
    assertThat(s.fates().refused()).isEqualTo(s.rejected());
    assertThat(recorder.answerAgeMillis(0.99)).isBetween(0L, 5_000L);
  }
}
