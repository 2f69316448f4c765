package dev.sluice.internal.limit;

import dev.sluice.Priority;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The layout of a connection's state: one {@code int}, kept by the connection wrapper (no
 * allocation per call) and passed in and out of the {@link Limiter}'s door rules, which alone
 * change it. Every bit is named here, in order, with no hole:
 *
 * <pre>
 *  bit  0      AUTO_COMMIT      auto-commit is on
 *  bit  1      IN_TRANSACTION   a transaction was admitted and is open
 *  bit  2      PREPAID          its door's permit pays for its first statement
 *  bit  3      UNREAD           auto-commit not yet read from the driver
 *  bit  4      RAN              with auto-commit unread: a statement ran since the last end
 *  bit  5      READ_ONLY        set read-only through Sluice
 *  bit  6      UNCHARGED        the open transaction passed in shadow mode only
 *  bit  7      TX_PLACE         the open transaction holds a place of the concurrency cap
 *  bits 8-9    TX_CLASS         the open transaction's priority, plus one (0: unknown)
 *  bit  10     CHECKOUT_PLACE   connection scope: the checkout holds a place of the cap
 *  bits 11-16  SAMPLE_COUNT     statements counted towards the next latency sample
 *  bit  17     SAMPLED          returned with the state, never kept: this statement is timed
 *  bit  18     HELD             returned with the state, never kept: this call took a place
 *  bit  19     NOTED            returned with the state, never kept: limiting with answers on,
 *                               the statement is noted for them (its session, its writes)
 * </pre>
 *
 * <p>{@link #SAMPLED} and {@link #HELD} travel beside the state from a door to the end of the
 * statement: the wrapper splits them off with {@link #kept} and {@link #held}.
 *
 * <p>All methods are pure functions of their arguments (the random sample phase aside).
 */
public final class ConnectionState {
  /** Auto-commit is on: each statement is its own unit of work. */
  public static final int AUTO_COMMIT = 1;
  /** A transaction has been admitted and is open: its statements are charged, never rejected. */
  public static final int IN_TRANSACTION = 1 << 1;
  /** The permit taken at the transaction's door pays for its first statement. */
  public static final int PREPAID = 1 << 2;
  /**
   * The connection's auto-commit has not been read from the driver: nothing has needed it yet.
   * While the flag stays closed nothing ever does, so a checkout costs no driver call; the limiter
   * reads it the first time a decision depends on it.
   */
  public static final int UNREAD = 1 << 3;
  /** With auto-commit unread: a statement ran since the last commit, rollback or switch. */
  public static final int RAN = 1 << 4;
  /**
   * The connection was set read-only through Sluice ({@code setReadOnly(true)}, as Spring's
   * {@code @Transactional(readOnly = true)} does): its calls are {@code SHEDDABLE} unless the code
   * says otherwise. The driver is never asked: some drivers answer {@code isReadOnly()} with a
   * query (H2; MySQL Connector/J unless {@code useLocalSessionState}), which a door, refused or
   * not, would send to the very database it protects.
   */
  public static final int READ_ONLY = 1 << 5;
  /**
   * The open transaction passed its door in shadow mode only: enforce mode would have refused it,
   * so its statements are not charged either (they would never have run).
   */
  public static final int UNCHARGED = 1 << 6;
  /**
   * The open transaction holds one place of the concurrency cap, taken at its door (or at its
   * first statement while limiting, when it began while not limiting) and given back when it
   * ends: commit, rollback, a statement that ends it, {@code setAutoCommit(true)}, close or
   * abort. Its statements take no place of their own.
   */
  public static final int TX_PLACE = 1 << 7;
  private static final int TX_CLASS_SHIFT = 8;
  /**
   * The priority the open transaction is charged at, plus one (bits 8-9): {@code 0} while it is
   * unknown, for a transaction that began while not limiting.
   */
  public static final int TX_CLASS = 3 << TX_CLASS_SHIFT;
  /**
   * In {@code connection} scope: the connection holds one place of the cap, from its checkout
   * (or its first statement while limiting, when it was checked out while not limiting) until
   * it is closed.
   */
  public static final int CHECKOUT_PLACE = 1 << 10;
  /**
   * One statement in this many is {@link #SAMPLED} on the flag-closed path, per connection, when
   * the cap adapts ({@code sluice.concurrency=auto}).
   */
  public static final int SAMPLE_EVERY = 64;
  private static final int SAMPLE_SHIFT = 11;
  /** The bits that count a connection's statements towards the next sample (11-16). */
  public static final int SAMPLE_COUNT = (SAMPLE_EVERY - 1) << SAMPLE_SHIFT;
  /**
   * Never kept in the state: returned with it by a door for a statement whose latency an adaptive
   * cap learns from. While not limiting, one in {@link #SAMPLE_EVERY} of a connection (nothing is
   * held: the end of the statement only reports it); while limiting, beside {@link #HELD}, one
   * admitted statement in the controller's stride.
   */
  public static final int SAMPLED = 1 << 17;
  /**
   * Never kept in the state: returned with it by a door when the call took a place in flight
   * ({@code sluice.concurrency}), which the end of the statement (or of the checkout) gives back
   * exactly once.
   */
  public static final int HELD = 1 << 18;
  /**
   * Never kept in the state: returned with it by a door while limiting with answers on, so that
   * the connection notes what the statement does to its session and which tables it writes
   * (answers' session keys and write fences), and again when it ends. Never set while not
   * limiting: the flag-closed path notes nothing.
   */
  public static final int NOTED = 1 << 19;
  /**
   * A door's verdict, never a state: the limiter refused the call, by the rate or, with
   * {@link #BY_CAP}, by the cap on calls in flight, at the priority in the bits above
   * ({@code Limiter.refusedAt}). Nothing else in the value means anything; the door that gets
   * it keeps its state as it was and makes the refusal ({@code Limiter.refusal}), or answers a
   * read. Tested as a constant ({@code (verdict & REFUSED) != 0}), so that a door's check enters
   * no room.
   */
  public static final int REFUSED = 1 << 20;
  /** With {@link #REFUSED}: the cap on calls in flight refused, not the rate. */
  public static final int BY_CAP = 1 << 21;
  /** Where a {@link #REFUSED} verdict keeps its priority's ordinal, two bits. */
  public static final int REFUSED_PRIORITY_SHIFT = 22;

  /** What ends with a transaction. */
  static final int TRANSACTION = IN_TRANSACTION | PREPAID | RAN | UNCHARGED | TX_PLACE
      | TX_CLASS;
  private static final int SAMPLE_STEP = 1 << SAMPLE_SHIFT;
  /** {@link Priority#values()} once: each call of it copies the array. */
  private static final Priority[] PRIORITIES = Priority.values();

  private ConnectionState() {}

  /**
   * The state of a connection just handed out: its auto-commit is read when first needed; it is
   * read-write until {@code setReadOnly(true)} says otherwise.
   *
   * @return the state bits
   */
  public static int initial() {
    return UNREAD;
  }

  /**
   * The state of a connection whose auto-commit is known to be {@code autoCommit}.
   *
   * @param autoCommit the connection's auto-commit
   * @return the state bits
   */
  public static int initial(boolean autoCommit) {
    return autoCommit ? AUTO_COMMIT : 0; // and read-write, as a new connection is
  }

  /**
   * The state after {@code setReadOnly(readOnly)} succeeded: known without asking the driver.
   *
   * @param state the connection's state
   * @param readOnly the value set
   * @return the state bits
   */
  public static int readOnly(int state, boolean readOnly) {
    return (state & ~READ_ONLY) | (readOnly ? READ_ONLY : 0);
  }

  /**
   * The state after {@code setAutoCommit(true)} threw. The switch commits an open transaction,
   * and a commit that fails still ends it; whether the driver switched is unknown, so its
   * auto-commit is read again when a decision first needs it. Whether it is read-only is kept.
   *
   * @param state the connection's state before the switch
   * @return the state bits
   */
  public static int afterFailedSwitchToAutoCommit(int state) {
    return UNREAD | (state & (READ_ONLY | CHECKOUT_PLACE));
  }

  /**
   * What a door returned, without {@link #HELD}, {@link #SAMPLED} and {@link #NOTED}: the state
   * to keep.
   *
   * @param next what the door returned
   * @return the state bits
   */
  public static int kept(int next) {
    return next & ~(HELD | SAMPLED | NOTED);
  }

  /**
   * What a door returned, only {@link #HELD}, {@link #SAMPLED} and {@link #NOTED}: what the end of
   * the statement
   * reports back.
   *
   * @param next what the door returned
   * @return the bits, {@code 0} when the statement holds nothing and is not timed
   */
  public static int held(int next) {
    return next & (HELD | SAMPLED | NOTED);
  }

  /**
   * A random count towards the next sample, for a connection just checked out: an application
   * that borrows a connection per statement is then sampled one statement in
   * {@link #SAMPLE_EVERY} of the budget, as one that keeps its connections is (started at 0, a
   * connection that runs fewer than {@link #SAMPLE_EVERY} statements was never sampled). From
   * {@link ThreadLocalRandom}: the calling thread's own seed, no shared write.
   */
  static int randomSamplePhase() {
    return ThreadLocalRandom.current().nextInt(SAMPLE_EVERY) * SAMPLE_STEP;
  }

  /**
   * Counts one statement in the state's sample bits and marks it {@link #SAMPLED} when the count
   * is a multiple of {@code stride}, a power of two up to {@link #SAMPLE_EVERY}.
   */
  static int sampleOneIn(int state, int stride) {
    int count = (state + SAMPLE_STEP) & SAMPLE_COUNT;
    int next = (state & ~SAMPLE_COUNT) | count;
    return (count & (stride - 1) * SAMPLE_STEP) == 0 ? next | SAMPLED : next;
  }

  /**
   * Resolves an unread auto-commit. Under manual commit, statements that ran while it was unread
   * (the flag was closed) belong to a transaction already begun: it is admitted, never cut.
   */
  static int read(int state, Connection connection) throws SQLException {
    int known = state & ~(UNREAD | RAN);
    if (connection.getAutoCommit()) {
      return known | AUTO_COMMIT;
    }
    return (state & RAN) != 0 ? known | IN_TRANSACTION : known;
  }
  /** The bits that remember a transaction's priority. */
  static int classBits(Priority priority) {
    return (priority.ordinal() + 1) << TX_CLASS_SHIFT;
  }

  /** The priority an admitted transaction is charged at; its class bits must be set. */
  static Priority transactionPriority(int state) {
    return PRIORITIES[((state & TX_CLASS) >>> TX_CLASS_SHIFT) - 1];
  }
}
