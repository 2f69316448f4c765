package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import dev.sluice.it.support.Causes;
import dev.sluice.it.support.Mode;
import dev.sluice.it.support.PoolAssert;
import dev.sluice.it.support.PoolState;
import dev.sluice.it.support.Rig;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.PersistenceException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.hibernate.TransactionException;
import org.hibernate.exception.JDBCConnectionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hibernate ORM 7 over HikariCP over PostgreSQL, Sluice in decorator and driver mode, started
 * both ways (native and JPA). HikariCP keeps {@code autoCommit=true}, so Hibernate's
 * {@code setAutoCommit(false)} at {@code begin()} is where a transaction is admitted.
 */
class HibernateTest {
  private static final int SEEDED = 20;

  static Stream<Arguments> setups() {
    List<Arguments> all = new ArrayList<>();
    for (Mode mode : Mode.values()) {
      for (Orm orm : Orm.values()) {
        all.add(Arguments.of(mode, orm));
      }
    }
    return all.stream();
  }

  static Stream<Arguments> decoratorSetups() {
    return setups().filter(a -> a.get()[0] == Mode.DECORATOR);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void flagClosed_entitiesPersistedAndQueried(Mode mode, Orm orm) throws Exception {
    try (Rig rig = Rig.of(mode, "hibernate", 1, 1, Scope.STATEMENT, 4)) {
      EntityManagerFactory emf = orm.start(rig.dataSource());
      try {
        PoolState before = rig.state();
        seed(emf);
        inTransaction(emf, em -> em.find(Account.class, 7L).setBalance(777));

        try (EntityManager em = emf.createEntityManager()) {
          Long count = em.createQuery("select count(a) from Account a", Long.class)
              .getSingleResult();
          assertThat(count).isEqualTo(SEEDED);
          assertThat(em.find(Account.class, 7L).getBalance()).isEqualTo(777);
          assertThat(em.find(Account.class, 8L).getOwner()).isEqualTo("owner-8");
        }
        PoolAssert.undisturbed(rig, before);
      } finally {
        emf.close();
      }
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void flagOpen_readOutsideTransaction_surfacesAsJdbcConnectionException(Mode mode, Orm orm)
      throws Exception {
    try (Rig rig = Rig.of(mode, "hibernate", 2, 1, Scope.STATEMENT, 4)) {
      EntityManagerFactory emf = orm.start(rig.dataSource());
      try {
        seed(emf);
        PoolState before = rig.state();
        rig.openFlag();
        List<PersistenceException> failures = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          try (EntityManager em = emf.createEntityManager()) {
            assertThat(em.find(Account.class, 1L + i % SEEDED)).isNotNull();
          } catch (PersistenceException e) {
            failures.add(e);
          }
        }
        rig.closeFlag();

        assertThat(failures).as("reads refused by a 2/s budget").hasSizeGreaterThan(10);
        for (PersistenceException e : failures) {
          assertThat(e).as(Causes.describe(e)).isInstanceOf(JDBCConnectionException.class);
          assertThat(Causes.chain(e)).as(Causes.describe(e))
              .hasAtLeastOneElementOfType(RateLimitExceededException.class);
        }
        PoolAssert.undisturbed(rig, before);
      } finally {
        emf.close();
      }
    }
  }

  /**
   * The door of a transaction is Hibernate's {@code setAutoCommit(false)} in {@code begin()}:
   * Hibernate reports a failure there as a {@link TransactionException} ("JDBC begin transaction
   * failed"), not as a {@link JDBCConnectionException}. Either way ours is in the cause chain and
   * nothing half-done reaches the database.
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void flagOpen_transactionRefusedAtBegin_rollsBackCleanly(Mode mode, Orm orm) throws Exception {
    try (Rig rig = Rig.of(mode, "hibernate", 2, 1, Scope.STATEMENT, 4)) {
      EntityManagerFactory emf = orm.start(rig.dataSource());
      try {
        seed(emf);
        PoolState before = rig.state();
        rig.openFlag();
        List<PersistenceException> failures = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          long id = 1_000 + i;
          try {
            inTransaction(emf, em -> em.persist(new Account(id, "late-" + id, 1)));
          } catch (PersistenceException e) {
            failures.add(e);
          }
        }
        rig.closeFlag();

        assertThat(failures).as("transactions refused by a 2/s budget").hasSizeGreaterThan(10);
        for (PersistenceException e : failures) {
          assertThat(e).as(Causes.describe(e)).isInstanceOf(TransactionException.class);
          assertThat(e.getCause()).as(Causes.describe(e))
              .isInstanceOf(RateLimitExceededException.class);
        }
        long persisted = countWhere(emf, "a.id >= 1000");
        assertThat(persisted).as("rows of the admitted transactions only")
            .isEqualTo(20 - failures.size());
        PoolAssert.undisturbed(rig, before);
      } finally {
        emf.close();
      }
    }
  }

  /**
   * {@code CONNECTION} scope exists in decorator mode only: in a {@code jdbc:sluice:} URL the
   * driver refuses it, since under a pool it would see physical connections opened, not
   * checkouts.
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("decoratorSetups")
  void connectionScope_checkoutRefused_surfacesAsJdbcConnectionException(Mode mode, Orm orm)
      throws Exception {
    try (Rig rig = Rig.of(mode, "hibernate", 2, 1, Scope.CONNECTION, 4)) {
      EntityManagerFactory emf = orm.start(rig.dataSource());
      try {
        seed(emf);
        PoolState before = rig.state();
        rig.openFlag();
        List<PersistenceException> failures = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          try {
            inTransaction(emf, em -> assertThat(em.find(Account.class, 3L)).isNotNull());
          } catch (PersistenceException e) {
            failures.add(e);
          }
        }
        rig.closeFlag();

        assertThat(failures).as("checkouts refused by a 2/s budget").hasSizeGreaterThan(10);
        for (PersistenceException e : failures) {
          assertThat(e).as(Causes.describe(e)).isInstanceOf(JDBCConnectionException.class);
          assertThat(Causes.isRejection(e)).as(Causes.describe(e)).isTrue();
        }
        PoolAssert.undisturbed(rig, before);
      } finally {
        emf.close();
      }
    }
  }

  /**
   * The trap: on PostgreSQL, a failed read inside a transaction can come back from
   * {@code find} as {@code null}, "not found", once the transaction is marked rollback-only.
   * Admission at the transaction's start means no read inside an admitted transaction is ever
   * refused: across thousands of refused transactions, every {@code find} of an existing entity
   * returns it or its transaction throws.
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void findOfExistingEntity_acrossThousandsOfRefusedTransactions_neverReturnsNull(Mode mode,
      Orm orm) throws Exception {
    try (Rig rig = Rig.of(mode, "hibernate", 40, 4, Scope.STATEMENT, 4)) {
      EntityManagerFactory emf = orm.start(rig.dataSource());
      try {
        seed(emf);
        PoolState before = rig.state();
        rig.openFlag();
        TrapCounts counts = runReaders(emf, 4, 3_000);
        rig.closeFlag();

        assertThat(counts.nulls.get()).as("finds that returned null: %s", counts).isZero();
        assertThat(counts.unexpected).as("unexpected failures: %s", counts).isEmpty();
        assertThat(counts.refusedInside.get())
            .as("transactions refused after their start: %s", counts).isZero();
        assertThat(counts.refused.get()).as("refused transactions").isGreaterThanOrEqualTo(3_000);
        assertThat(counts.found.get()).as("admitted transactions").isPositive();
        PoolAssert.undisturbed(rig, before);
      } finally {
        emf.close();
      }
    }
  }

  private static final class TrapCounts {
    final AtomicLong found = new AtomicLong();
    final AtomicLong nulls = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong refusedInside = new AtomicLong();
    final ConcurrentHashMap<String, String> unexpected = new ConcurrentHashMap<>();

    @Override
    public String toString() {
      return "found=" + found + " null=" + nulls + " refused=" + refused + " refusedInside="
          + refusedInside + " unexpected=" + unexpected.keySet();
    }
  }

  /** Threads reading two existing entities per transaction until enough were refused. */
  private static TrapCounts runReaders(EntityManagerFactory emf, int threads, long refusals)
      throws InterruptedException {
    TrapCounts counts = new TrapCounts();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    for (int t = 0; t < threads; t++) {
      int seed = t;
      pool.execute(() -> {
        long i = seed;
        while (counts.refused.get() < refusals && System.nanoTime() < deadline) {
          readTwo(emf, 1 + i % SEEDED, 1 + (i + 7) % SEEDED, counts);
          i += threads;
        }
      });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    return counts;
  }

  private static void readTwo(EntityManagerFactory emf, long a, long b, TrapCounts counts) {
    boolean begun = false;
    try (EntityManager em = emf.createEntityManager()) {
      EntityTransaction tx = em.getTransaction();
      try {
        tx.begin();
        begun = true;
        Account first = em.find(Account.class, a);
        Account second = em.find(Account.class, b);
        tx.commit();
        if (first == null || second == null) {
          counts.nulls.incrementAndGet();
        } else {
          counts.found.incrementAndGet();
        }
      } finally {
        if (tx.isActive()) {
          tx.rollback();
        }
      }
    } catch (RuntimeException e) {
      if (!Causes.isRejection(e)) {
        counts.unexpected.putIfAbsent(Causes.describe(e), e.toString());
      } else if (begun) {
        counts.refusedInside.incrementAndGet();
      } else {
        counts.refused.incrementAndGet();
      }
    }
  }

  private static void seed(EntityManagerFactory emf) {
    inTransaction(emf, em -> {
      for (long id = 1; id <= SEEDED; id++) {
        em.persist(new Account(id, "owner-" + id, id * 10));
      }
    });
  }

  private static long countWhere(EntityManagerFactory emf, String condition) {
    try (EntityManager em = emf.createEntityManager()) {
      return em.createQuery("select count(a) from Account a where " + condition, Long.class)
          .getSingleResult();
    }
  }

  /** What an application writes: begin, work, commit; roll back whatever was left open. */
  static void inTransaction(EntityManagerFactory emf, Consumer<EntityManager> work) {
    try (EntityManager em = emf.createEntityManager()) {
      EntityTransaction tx = em.getTransaction();
      try {
        tx.begin();
        work.accept(em);
        tx.commit();
      } finally {
        if (tx.isActive()) {
          tx.rollback();
        }
      }
    }
  }
}
