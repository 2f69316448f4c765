package dev.sluice.internal.jdbc;

import dev.sluice.RateLimitExceededException;
import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.answer.Parameters;
import dev.sluice.internal.answer.ReadKey;
import dev.sluice.internal.answer.Recording;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Wrapper;

/**
 * The connection Sluice hands out, and in this one file everything its JDBC objects do beyond
 * passing a call on: the connection's transaction state, the statements' gated {@code execute*}
 * family, and the wrapping that keeps every object reached through the JDBC API a wrapper.
 *
 * <h2>Written here, generated at build time</h2>
 *
 * <p>Each wrapper is an abstract class here, holding only the methods Sluice intercepts; the
 * final class actually handed out ({@code GeneratedConnection}, {@code GeneratedStatement}...)
 * is written at build time by {@code driver/src/build/java/GenerateWrappers.java} into
 * {@code target/generated-sources/jdbc-wrappers}. It implements every other method of the JDBC
 * 4.3 interface, default methods included (so {@code beginRequest}, {@code enquoteIdentifier}
 * and friends reach the driver's own implementation), as a plain call to the driver's object:
 * no reflection, no proxy, the same bytecode as a hand-written delegation. Two rules bend that:
 * a method that returns a {@code ResultSet}, {@code Statement}, {@code Connection} or
 * {@code DatabaseMetaData} returns {@code wrap(delegate.m(...))}, a {@code wrap} overload
 * declared here (a kind with no such overload must write the method here, or the build fails),
 * and {@code wrap(sql, delegate.prepareStatement(sql, ...))} for a statement prepared from text;
 * and every class's {@code unwrap}, {@code isWrapperFor} and {@code toString} call the statics
 * {@link #unwrap(Wrapper, Wrapper, Class)}, {@link #isWrapperFor(Wrapper, Wrapper, Class)} and
 * {@link #describe} here. The methods here are {@code final}, so that a generated method can
 * never replace one, and the generator refuses a file where one is not. To intercept one more
 * method, write it here.
 *
 * <p>The one exception is the gated {@code execute*} family, whose methods all have the same
 * body: report to the connection, call the driver, report back exactly once on every way out. Only
 * the three that may answer a read are written here, the two {@code executeQuery} and
 * {@code PreparedStatement.execute()}; the others, {@code executeUpdate}, {@code execute} (each
 * overload of {@code Statement}), {@code executeLargeUpdate} (each overload of {@code Statement},
 * and the no-argument one of {@code PreparedStatement}), {@code executeBatch} and
 * {@code executeLargeBatch}, are listed in {@code GATED} in
 * {@code driver/src/build/java/GenerateWrappers.java} and written into each generated statement
 * class from its one template, {@code GATED_BODY}. So this file and that list are together the
 * whole of what is intercepted; to gate one more execute method, add it to the list.
 *
 * <p>So the path of one {@code executeQuery} stays in this file between the data source and the
 * limiter: {@code RateLimitedDataSource.getConnection()} calls {@link #wrap}, the generated
 * {@code prepareStatement(sql)} calls {@code wrap(sql, ...)} here, and {@code executeQuery()},
 * final here, asks the {@link Limiter}, which takes from the bucket. The generated classes add
 * only their constructors, the methods that pass a call on and the gated family above.
 *
 * <h2>The connection</h2>
 *
 * <p>{@code unwrap} is the one door out: it returns the wrapper for the interfaces it implements
 * ({@code unwrap(Connection.class)} stays limited) and the driver's object for anything else
 * ({@code unwrap(PGConnection.class)} works for COPY; work done on it is not limited).
 *
 * <p>The {@link Limiter} decides admission. The connection only reports what happens and keeps its
 * state, an {@code int} laid out by {@link ConnectionState} (the driver's auto-commit is read
 * only when the limiter first needs it): statements report each execution through
 * {@link #beforeStatement()} (or {@link #beforeStatement(String)} when the SQL comes as text, which
 * may end the transaction), {@link #setAutoCommit} reports before it reaches the driver (and
 * keeps the new state only if the driver accepted the change; a failed switch to auto-commit
 * still ends the transaction), {@link #commit()} and {@link #rollback()} report after they
 * return or throw: a failed one ends the transaction too. Nothing else is gated: preparing,
 * setters, {@code setReadOnly}, {@code isValid}, metadata, {@code close}.
 *
 * <p>With a concurrency cap, the limiter's answer to a statement may carry
 * {@link ConnectionState#HELD} (a place in flight) or {@link ConnectionState#SAMPLED} (its latency
 * is learned from): the connection keeps
 * them out of the state and hands them to the statement as an {@code int}, which reports them back
 * through {@link #afterStatement} when its {@code execute*} returns or throws. Without a cap,
 * and while not limiting, that {@code int} is {@code 0} and the report is one compare. A place
 * that outlives a statement is kept in the state instead ({@link ConnectionState#TX_PLACE}: an
 * open transaction's, given back when it ends; {@link ConnectionState#CHECKOUT_PLACE}: a
 * checkout's in {@code connection} scope) and given back on the first {@link #close()} or
 * {@link #abort}.
 *
 * <h2>Answers instead of refusals</h2>
 *
 * <p>With {@code sluice.stale.max-age} on ({@link Answers}), the methods written here
 * that run a read, {@code Statement.executeQuery(String)}, {@code PreparedStatement.executeQuery()}
 * and {@code PreparedStatement.execute()} (with its {@code getResultSet()}, which jOOQ and MyBatis
 * read through), do two more things. A read the limiter refuses (its
 * {@link RateLimitExceededException}, by the rate or the concurrency cap) is answered instead
 * when it is eligible and an answer exists ({@link #answerOrThrow}); otherwise the very same
 * exception goes on. An admitted eligible read, while limiting, is recorded as its caller reads
 * it: the {@link ResultSetWrapper} reports each {@code next()} and {@code close()} to its
 * {@link Recording}. A prepared statement records its parameters in a {@link Parameters}
 * (the generated setters, see {@code GenerateWrappers}) only when it was prepared after a
 * refusal: with the flag closed the statements, setters and result sets read one plain field
 * each, allocate nothing and read nothing volatile for answers.
 *
 * <h2>Identity</h2>
 *
 * <p>{@code equals} and {@code hashCode} are {@link Object}'s, so a wrapper equals only itself
 * and never the driver's object. That is enough because nothing leaks: the back-references
 * ({@code Statement.getConnection()}, {@code DatabaseMetaData.getConnection()}, and through
 * {@code ResultSet.getStatement()}) return the very wrappers, so a framework comparing the
 * connection it holds with the one a statement reports (Spring's {@code DataSourceUtils}) sees
 * the same object.
 *
 * <p>Thread-safety: like the driver's objects, the wrappers are meant for one thread at a time.
 * They hold no lock and have no {@code synchronized} code (a virtual thread never pins here).
 * The state is a plain field: a connection shared between threads without ordering can at worst
 * miscount a permit, never corrupt a driver call. Calls allocate nothing beyond the wrappers of
 * the objects they return (one per statement, one per result set, one metadata wrapper per
 * connection).
 */
public abstract sealed class ConnectionWrapper implements Connection permits GeneratedConnection {
  /** The driver's connection. */
  final Connection delegate;
  private final Limiter limiter;
  /** Its state, laid out by {@link ConnectionState}; confined to the thread using it. */
  private int state;
  /** The metadata last handed out, so asking twice gives the same wrapper. */
  private DatabaseMetaDataWrapper metaData;
  /**
   * When the statement now running was admitted, if it holds a place in flight. One field, not
   * one per statement: a connection runs one statement at a time.
   */
  private long startNanos;
  /**
   * The user the connection was asked for with, and the catalog and schema last set through this
   * wrapper: part of a read's identity for answers. {@code null} while all are the budget's
   * defaults (the usual case), made only when one of them is given; {@link #CLOSED} once the
   * connection is closed (its closed flag too: one field for both keeps the wrapper as small as
   * it was before answers).
   */
  private Identity identity;
  /** {@link #identity} of a closed connection, compared by reference. */
  private static final Identity CLOSED = new Identity(null, null, null);

  ConnectionWrapper(Connection delegate, Limiter limiter, int state, String user) {
    this.delegate = delegate;
    this.limiter = limiter;
    this.state = state;
    this.identity = user == null ? null : new Identity(user, null, null);
  }

  /** See {@link #identity}. */
  private record Identity(String user, String catalog, String schema) {}

  /**
   * Wraps a connection just handed out by the driver or the pool, so that its statements are
   * admitted by {@code limiter}. The driver is not called: the limiter reads the connection's
   * auto-commit only when a decision first depends on it (never while the flag stays closed).
   *
   * @param raw the connection to wrap; {@code null} gives {@code null}
   * @param limiter decides what is admitted
   * @return the wrapper, or {@code null} when {@code raw} is {@code null}
   */
  public static Connection wrap(Connection raw, Limiter limiter) {
    return wrap(raw, limiter, 0);
  }

  /**
   * As {@link #wrap(Connection, Limiter)}, for a checkout that took a place in flight.
   *
   * @param raw the connection to wrap; {@code null} gives {@code null} (and gives the place back)
   * @param limiter decides what is admitted
   * @param checkoutHeld what {@link Limiter#beforeCheckout()} returned: the place is given back
   *     when the connection is closed, once
   * @return the wrapper, or {@code null} when {@code raw} is {@code null}
   */
  public static Connection wrap(Connection raw, Limiter limiter, int checkoutHeld) {
    return wrap(raw, limiter, checkoutHeld, null);
  }

  /**
   * As {@link #wrap(Connection, Limiter, int)}, for a connection asked for with a user.
   *
   * @param raw the connection to wrap; {@code null} gives {@code null} (and gives the place back)
   * @param limiter decides what is admitted
   * @param checkoutHeld what {@link Limiter#beforeCheckout()} returned
   * @param user the user the connection was asked for with, part of a read's identity for
   *     answers; {@code null} for the default
   * @return the wrapper, or {@code null} when {@code raw} is {@code null}
   */
  public static Connection wrap(Connection raw, Limiter limiter, int checkoutHeld, String user) {
    if (raw == null) {
      limiter.places().afterCheckout(checkoutHeld, null);
      return null;
    }
    return new GeneratedConnection(raw, limiter, limiter.places().checkedOut(checkoutHeld), user);
  }

  /**
   * Reports that one of this connection's statements is about to execute.
   *
   * @return {@link ConnectionState#HELD} when it took a place in flight,
   *     {@link ConnectionState#SAMPLED} when its latency is learned from, to pass to
   *     {@link #afterStatement}; else {@code 0}
   * @throws SQLException a {@code RateLimitExceededException} when the limiter refuses it
   */
  final int beforeStatement() throws SQLException {
    return held(limiter.beforeStatement(state, delegate));
  }

  /**
   * Reports that one of this connection's statements is about to execute {@code sql}, given as
   * text: the limiter ends the transaction when the text does ({@code COMMIT},
   * {@code ROLLBACK}...).
   *
   * @return as {@link #beforeStatement()}
   * @throws SQLException a {@code RateLimitExceededException} when the limiter refuses it
   */
  final int beforeStatement(String sql) throws SQLException {
    return held(limiter.beforeStatement(state, delegate, sql));
  }

  /** Keeps the state; the place in flight is the caller's, never part of it. */
  private int held(int next) {
    state = ConnectionState.kept(next);
    int held = ConnectionState.held(next);
    if ((held & ConnectionState.SAMPLED) != 0) {
      startNanos = limiter.places().startNanos(); // only a sampled statement is timed
    }
    return held;
  }

  /**
   * Reports that a statement which {@link #beforeStatement()} admitted has returned or thrown.
   * The statement wrappers call it in a {@code finally}, and first in a {@code catch} of
   * {@link SQLException} with the failure (then passing on the {@code 0} it returns), so that
   * the place is given back exactly once on every way out, {@code Error}s included.
   *
   * @param held what {@link #beforeStatement()} returned
   * @param sql the statement's text (its shape), or {@code null}
   * @param failure what it threw, or {@code null}
   * @return {@code 0}: nothing is held any more
   */
  final int afterStatement(int held, String sql, SQLException failure) {
    if (held != 0) {
      limiter.places().afterStatement(held, startNanos, sql, failure);
    }
    return 0;
  }

  /** The transaction state, for tests. */
  final int state() {
    return state;
  }

  /**
   * Switching to manual commit may be a transaction's door: the limiter admits it, or throws before
   * the driver sees the call, so the connection stays as it was. Switching to auto-commit ends
   * the transaction, whether the driver's call returns or throws (see
   * {@link dev.sluice.internal.limit.Places#afterAutoCommit}).
   */
  @Override
  public final void setAutoCommit(boolean autoCommit) throws SQLException {
    int next = limiter.beforeAutoCommit(state, autoCommit, delegate);
    boolean switched = false;
    try {
      delegate.setAutoCommit(autoCommit);
      switched = true;
    } finally {
      state = limiter.places().afterAutoCommit(state, next, autoCommit, switched);
    }
  }

  /** Ends the transaction, even when it throws (see {@code Places.afterEnd}). */
  @Override
  public final void commit() throws SQLException {
    try {
      delegate.commit();
    } finally {
      state = limiter.places().afterEnd(state);
    }
  }

  /**
   * Ends the transaction, even when it throws; a rollback to a savepoint does not, and is not
   * reported.
   */
  @Override
  public final void rollback() throws SQLException {
    try {
      delegate.rollback();
    } finally {
      state = limiter.places().afterEnd(state);
    }
  }

  /**
   * Closes the driver's connection once; later calls do nothing, as JDBC asks. A place in flight
   * the checkout or an open transaction holds is given back on the first call, even if the
   * driver's close throws.
   */
  @Override
  public final void close() throws SQLException {
    if (identity != CLOSED) {
      try {
        delegate.close();
      } finally {
        givePlacesBack();
      }
    }
  }

  /**
   * Aborts the driver's connection; the places it holds are given back as by {@link #close()},
   * once, even if the driver's abort throws.
   */
  @Override
  public final void abort(java.util.concurrent.Executor executor) throws SQLException {
    try {
      delegate.abort(executor);
    } finally {
      if (identity != CLOSED) {
        givePlacesBack();
      }
    }
  }

  private void givePlacesBack() {
    identity = CLOSED;
    int held = state;
    state &= ~(ConnectionState.TX_PLACE | ConnectionState.CHECKOUT_PLACE);
    limiter.places().afterClose(held);
  }

  /** Kept: the catalog is part of a read's identity for answers. */
  @Override
  public final void setCatalog(String catalog) throws SQLException {
    delegate.setCatalog(catalog);
    Identity was = identity;
    if (was == CLOSED) {
      return; // a driver that takes the call when closed: the connection stays closed here
    }
    identity = was == null ? new Identity(null, catalog, null)
        : new Identity(was.user(), catalog, was.schema());
  }

  /** Kept: the schema is part of a read's identity for answers. */
  @Override
  public final void setSchema(String schema) throws SQLException {
    delegate.setSchema(schema);
    Identity was = identity;
    if (was == CLOSED) {
      return;
    }
    identity = was == null ? new Identity(null, null, schema)
        : new Identity(was.user(), was.catalog(), schema);
  }

  // --- answers instead of refusals: only the two executeQuery methods call these

  /**
   * A new prepared statement's parameter record: only while answers are active (a read was
   * refused since a read last found the budget not limiting), else {@code null} and nothing is
   * allocated.
   */
  final Parameters parameters() {
    Answers a = limiter.answers();
    return a != null && a.active() ? new Parameters() : null;
  }

  /**
   * A read the limiter refused: answered instead if it is eligible and {@link Answers#answer}
   * has an answer (which may wait up to {@code sluice.stale.wait}, holding nothing); else the
   * same refusal is thrown on. Nothing is held here: a refused call took no permit and no place.
   *
   * @param refused the limiter's refusal
   * @param caller the statement wrapper whose {@code executeQuery} was refused
   * @param sql the statement's text
   * @param parameters the prepared statement's parameters, or {@code null}
   * @param prepared whether it is {@code PreparedStatement.executeQuery()}
   * @return the answered result
   * @throws RateLimitExceededException {@code refused}, when not answered
   */
  final ResultSet answerOrThrow(RateLimitExceededException refused, StatementWrapper caller,
      String sql, Parameters parameters, boolean prepared) throws RateLimitExceededException {
    Answers a = limiter.answers();
    if (a == null) {
      throw refused;
    }
    a.refused();
    ResultSet answer = null;
    try {
      boolean autoCommit = (state & ConnectionState.UNREAD) != 0 ? delegate.getAutoCommit()
          : (state & (ConnectionState.AUTO_COMMIT | ConnectionState.IN_TRANSACTION))
              == ConnectionState.AUTO_COMMIT;
      ReadKey key = autoCommit ? key(caller, sql, parameters, prepared) : null;
      answer = key == null ? null : a.answer(key, caller);
    } catch (SQLException | RuntimeException e) {
      refused.addSuppressed(e); // not answerable: refused as without answers
    }
    if (answer == null) {
      throw refused;
    }
    return answer;
  }

  /**
   * An admitted read's result: recorded while limiting, if eligible. With answers off, or not
   * active, one plain read.
   *
   * @param result the wrapped result of {@code executeQuery}
   * @return {@code result}
   */
  final ResultSet recorded(StatementWrapper caller, ResultSet result, String sql,
      Parameters parameters, boolean prepared) {
    Answers a = limiter.answers();
    if (a == null || !a.active() || !(result instanceof ResultSetWrapper)) {
      return result;
    }
    if (!limiter.isLimiting()) {
      a.notLimiting(); // limiting ended: no more recording, and the kept results go
      return result;
    }
    if ((state & (ConnectionState.AUTO_COMMIT | ConnectionState.IN_TRANSACTION
        | ConnectionState.UNREAD)) != ConnectionState.AUTO_COMMIT) {
      return result;
    }
    ResultSetWrapper wrapper = (ResultSetWrapper) result;
    try {
      ReadKey key = key(caller, sql, parameters, prepared);
      if (key != null && wrapper.recording == null) {
        wrapper.recording = a.record(key, wrapper.delegate);
      }
    } catch (SQLException | RuntimeException e) {
      // not recorded; the caller's result is untouched
    }
    return result;
  }

  /**
   * The key of an eligible read, else {@code null}: not a callable statement, nor a plain
   * statement's text on a prepared one; a prepared statement whose every parameter was
   * recorded; a forward-only, read-only result with no {@code maxFieldSize} (it would truncate
   * values); read text that takes no lock ({@link ReadKey#of}). The caller checked auto-commit.
   */
  private ReadKey key(StatementWrapper caller, String sql, Parameters parameters,
      boolean prepared) throws SQLException {
    if (caller instanceof CallableStatement
        || (prepared ? parameters == null : caller instanceof PreparedStatement)) {
      return null;
    }
    Statement s = caller.delegate;
    if (s.getResultSetType() != ResultSet.TYPE_FORWARD_ONLY
        || s.getResultSetConcurrency() != ResultSet.CONCUR_READ_ONLY
        || s.getMaxFieldSize() != 0) {
      return null;
    }
    Identity id = identity;
    if (id == CLOSED) {
      return null; // the driver would refuse it: never answered
    }
    return id == null ? ReadKey.of(sql, parameters, s.getMaxRows(), null, null, null)
        : ReadKey.of(sql, parameters, s.getMaxRows(), id.user(), id.catalog(), id.schema());
  }

  @Override
  public final void setReadOnly(boolean readOnly) throws SQLException {
    delegate.setReadOnly(readOnly);
    state = ConnectionState.readOnly(state, readOnly); // kept: a decision need not ask the driver
  }

  @Override
  public final DatabaseMetaData getMetaData() throws SQLException {
    DatabaseMetaData raw = delegate.getMetaData();
    if (raw == null) {
      return null;
    }
    if (metaData == null || metaData.delegate != raw) {
      metaData = new GeneratedDatabaseMetaData(this, raw);
    }
    return metaData;
  }

  // --- statements: each knows its connection, and a prepared one its SQL (its samples' shape).
  // createStatement, prepareStatement and prepareCall are generated: wrap(delegate.m(...)), and
  // wrap(sql, delegate.m(sql, ...)) for a statement prepared from SQL text.

  /** Wraps a statement this connection created: the generated {@code createStatement}s call it. */
  final Statement wrap(Statement raw) {
    return StatementWrapper.of(this, raw);
  }

  /** Wraps a statement prepared from {@code sql}: the generated {@code prepareStatement}s. */
  final PreparedStatement wrap(String sql, PreparedStatement raw) {
    return PreparedStatementWrapper.of(this, sql, raw);
  }

  /** Wraps a call prepared from {@code sql}: the generated {@code prepareCall}s call it. */
  final CallableStatement wrap(String sql, CallableStatement raw) {
    return CallableStatementWrapper.of(this, sql, raw);
  }

  /** Wraps a statement the driver reports, with the wrapper of its kind. */
  final Statement statement(Statement raw) {
    if (raw instanceof CallableStatement) {
      return CallableStatementWrapper.of(this, (CallableStatement) raw);
    }
    if (raw instanceof PreparedStatement) {
      return PreparedStatementWrapper.of(this, (PreparedStatement) raw);
    }
    return StatementWrapper.of(this, raw);
  }

  // --- what every wrapper does alike: its unwrap, isWrapperFor and toString are one-line calls
  // to these, generated into each class (ALIKE in GenerateWrappers)

  /**
   * The {@code unwrap} of every wrapper: the wrapper itself for the interfaces it implements (a
   * caller asking for a {@code Connection} keeps a limited one), else the driver's object.
   */
  static <T> T unwrap(Wrapper wrapper, Wrapper delegate, Class<T> iface) throws SQLException {
    if (iface.isInstance(wrapper)) {
      return iface.cast(wrapper);
    }
    if (iface.isInstance(delegate)) {
      return iface.cast(delegate);
    }
    return delegate.unwrap(iface);
  }

  /** The {@code isWrapperFor} of every wrapper: true exactly when {@link #unwrap} succeeds. */
  static boolean isWrapperFor(Wrapper wrapper, Wrapper delegate, Class<?> iface)
      throws SQLException {
    return iface.isInstance(wrapper) || iface.isInstance(delegate) || delegate.isWrapperFor(iface);
  }

  /** Names the wrapper by its class here (the generated class's superclass) and the delegate. */
  static String describe(Wrapper wrapper, Object delegate) {
    return "Sluice " + wrapper.getClass().getSuperclass().getSimpleName() + " over " + delegate;
  }

  /**
   * A statement handed out by a {@link ConnectionWrapper}. Each execution ({@code execute*},
   * {@code executeLarge*}, batches) first reports to the connection, whose limiter admits, charges
   * or refuses it; a refused call never reaches the driver and leaves the statement usable. It
   * reports back when the call returns or throws, exactly once on every way out.
   * {@code getConnection()} returns the connection wrapper, and the result sets returned are
   * wrapped so that their {@code getStatement()} returns this wrapper.
   *
   * <p>The prepared and callable wrappers extend it. Only {@code executeQuery} is written here;
   * the rest of the gated family is generated (see the class comment), the same body in each of
   * the three statement classes. No closed flag of its own ({@code close} is delegated): JDBC
   * makes closing a closed statement a no-op, and one field less keeps the wrapper small.
   */
  abstract static sealed class StatementWrapper implements Statement
      permits GeneratedStatement, PreparedStatementWrapper {
    final ConnectionWrapper connection;
    /** The driver's statement. */
    final Statement delegate;
    /**
     * The result set last handed out, so asking twice for the same one gives the same wrapper: a
     * wrapper of the driver's, or the answer of a read answered instead of refused.
     */
    private ResultSet resultSet;

    StatementWrapper(ConnectionWrapper connection, Statement delegate) {
      this.connection = connection;
      this.delegate = delegate;
    }

    static StatementWrapper of(ConnectionWrapper connection, Statement raw) {
      return raw == null ? null : new GeneratedStatement(connection, raw);
    }

    /**
     * Wraps a result set of this statement, reusing the wrapper when the driver repeats itself;
     * the generated {@code getResultSet} and {@code getGeneratedKeys} call it too.
     */
    final ResultSet wrap(ResultSet raw) {
      ResultSetWrapper last = resultSet instanceof ResultSetWrapper w ? w : null;
      resultSet = ResultSetWrapper.reuse(last, connection, this, raw);
      return resultSet;
    }

    /** A read of this statement was answered instead of refused: its result, for getResultSet. */
    final ResultSet answered(ResultSet answer) {
      resultSet = answer;
      return answer;
    }

    /** The answer of this statement's last execution, or {@code null} when the driver ran it. */
    final ResultSet lastAnswer() {
      ResultSet last = resultSet;
      return last == null || last instanceof ResultSetWrapper ? null : last;
    }

    @Override
    public final Connection getConnection() throws SQLException {
      return connection;
    }

    // --- the gated calls: report before, and after on every way out. The rest of the family
    // (executeUpdate, execute, executeLargeUpdate, the batches) is generated from GATED and
    // GATED_BODY in driver/src/build/java/GenerateWrappers.java, to the same shape as this one.

    /**
     * Gated as every execution; with answers on, a refused eligible read may be answered
     * instead, and an admitted one recorded while limiting (see {@link ConnectionWrapper}).
     */
    @Override
    public final ResultSet executeQuery(String sql) throws SQLException {
      int held;
      try {
        held = connection.beforeStatement(sql);
      } catch (RateLimitExceededException refused) {
        return answered(connection.answerOrThrow(refused, this, sql, null, false));
      }
      try {
        return connection.recorded(this, wrap(delegate.executeQuery(sql)), sql, null, false);
      } catch (SQLException e) {
        held = connection.afterStatement(held, sql, e);
        throw e;
      } finally {
        connection.afterStatement(held, sql, null);
      }
    }
  }

  /**
   * A prepared statement handed out by a {@link ConnectionWrapper}: a {@link StatementWrapper}
   * whose own executions (without SQL text) are gated the same way and report the SQL it was
   * prepared with.
   */
  abstract static sealed class PreparedStatementWrapper extends StatementWrapper
      implements PreparedStatement permits GeneratedPreparedStatement, CallableStatementWrapper {
    /** The SQL text it was prepared with, the shape of its latency samples; {@code null}: unknown. */
    final String sql;
    /**
     * The parameters set, for a read's identity: recorded by the generated setters only when
     * answers were active as it was prepared ({@link ConnectionWrapper#parameters()}); else
     * {@code null}, and a setter costs one null check. Never for a callable statement.
     */
    final Parameters parameters;

    PreparedStatementWrapper(ConnectionWrapper connection, String sql, PreparedStatement delegate) {
      super(connection, delegate);
      this.sql = sql;
      this.parameters = this instanceof CallableStatement ? null : connection.parameters();
    }

    static PreparedStatementWrapper of(ConnectionWrapper connection, PreparedStatement raw) {
      return of(connection, null, raw);
    }

    static PreparedStatementWrapper of(ConnectionWrapper connection, String sql,
        PreparedStatement raw) {
      return raw == null ? null : new GeneratedPreparedStatement(connection, sql, raw);
    }

    /** The driver's statement, as the type this wrapper was made for. */
    final PreparedStatement prepared() {
      return (PreparedStatement) delegate;
    }

    /**
     * Gated as every execution; with answers on, a refused eligible read may be answered
     * instead, and an admitted one recorded while limiting (see {@link ConnectionWrapper}).
     */
    @Override
    public final ResultSet executeQuery() throws SQLException {
      int held;
      try {
        held = connection.beforeStatement();
      } catch (RateLimitExceededException refused) {
        return answered(connection.answerOrThrow(refused, this, sql, parameters, true));
      }
      try {
        return connection.recorded(this, wrap(prepared().executeQuery()), sql, parameters, true);
      } catch (SQLException e) {
        held = connection.afterStatement(held, sql, e);
        throw e;
      } finally {
        connection.afterStatement(held, sql, null);
      }
    }

    /**
     * Gated as every execution; with answers on, a refused eligible read may be answered instead
     * (its result is then {@link #getResultSet()}'s), as {@code executeQuery()} is: jOOQ and
     * MyBatis read through {@code execute()}. An admitted one is recorded when its result is
     * asked for. Of a prepared statement's own executions only these two can run its read again,
     * so each of them sets what {@code getResultSet()} returns.
     */
    @Override
    public final boolean execute() throws SQLException {
      int held;
      try {
        held = connection.beforeStatement();
      } catch (RateLimitExceededException refused) {
        answered(connection.answerOrThrow(refused, this, sql, parameters, true));
        return true;
      }
      if (lastAnswer() != null) {
        answered(null); // the driver runs this one: its result is the driver's again
      }
      try {
        return prepared().execute();
      } catch (SQLException e) {
        held = connection.afterStatement(held, sql, e);
        throw e;
      } finally {
        connection.afterStatement(held, sql, null);
      }
    }

    /**
     * The answer of an answered {@code execute()} or {@code executeQuery()}; else the driver's
     * result, recorded while limiting if the read is eligible (as {@code executeQuery()}'s is).
     */
    @Override
    public final ResultSet getResultSet() throws SQLException {
      ResultSet answer = lastAnswer();
      return answer != null ? answer
          : connection.recorded(this, wrap(prepared().getResultSet()), sql, parameters, true);
    }

    /** After an answer there is no other result: the answer is closed, as JDBC closes it. */
    @Override
    public final boolean getMoreResults() throws SQLException {
      ResultSet answer = lastAnswer();
      if (answer == null) {
        return prepared().getMoreResults();
      }
      answered(null);
      answer.close();
      return false;
    }

    /** As {@link #getMoreResults()}; {@code KEEP_CURRENT_RESULT} leaves the answer open. */
    @Override
    public final boolean getMoreResults(int current) throws SQLException {
      ResultSet answer = lastAnswer();
      if (answer == null) {
        return prepared().getMoreResults(current);
      }
      answered(null);
      if (current != Statement.KEEP_CURRENT_RESULT) {
        answer.close();
      }
      return false;
    }

    /** An answer is a result, never an update count. */
    @Override
    public final int getUpdateCount() throws SQLException {
      return lastAnswer() != null ? -1 : prepared().getUpdateCount();
    }

    /** An answer is a result, never an update count. */
    @Override
    public final long getLargeUpdateCount() throws SQLException {
      return lastAnswer() != null ? -1 : prepared().getLargeUpdateCount();
    }
  }

  /**
   * A callable statement handed out by a {@link ConnectionWrapper}: a
   * {@link PreparedStatementWrapper}; nothing of {@code CallableStatement} itself is gated.
   */
  abstract static sealed class CallableStatementWrapper extends PreparedStatementWrapper
      implements CallableStatement permits GeneratedCallableStatement {
    CallableStatementWrapper(ConnectionWrapper connection, String sql,
        CallableStatement delegate) {
      super(connection, sql, delegate);
    }

    static CallableStatementWrapper of(ConnectionWrapper connection, CallableStatement raw) {
      return of(connection, null, raw);
    }

    static CallableStatementWrapper of(ConnectionWrapper connection, String sql,
        CallableStatement raw) {
      return raw == null ? null : new GeneratedCallableStatement(connection, sql, raw);
    }

    /** The driver's statement, as the type this wrapper was made for. */
    final CallableStatement callable() {
      return (CallableStatement) delegate;
    }
  }

  /**
   * A result set handed out by a statement or metadata wrapper: {@code getStatement()} returns
   * the statement wrapper it came from. The result sets of {@link DatabaseMetaData} have no
   * statement wrapper of their own: the driver's statement, if it reports one, is wrapped on
   * first request. LOBs, arrays and structs are returned as the driver made them, since drivers
   * cast what is handed back to them. No closed flag of its own: JDBC makes closing a closed
   * result set a no-op, and one field less keeps the wrapper small.
   */
  abstract static sealed class ResultSetWrapper implements ResultSet
      permits GeneratedResultSet {
    /** The driver's result set. */
    final ResultSet delegate;
    /**
     * The statement wrapper this result set came from; for a metadata result, until asked, the
     * {@link ConnectionWrapper} that wraps the driver's statement then. One field for both, so
     * that {@link #recording} makes the wrapper no larger.
     */
    private Object owner;
    /**
     * While limiting, with answers on: keeps this result as its caller reads it
     * ({@link ConnectionWrapper#recorded}); {@code null} otherwise, and {@code next()} and
     * {@code close()} cost one null check.
     */
    Recording recording;

    ResultSetWrapper(ConnectionWrapper connection, Statement statement, ResultSet delegate) {
      this.owner = statement != null ? statement : connection;
      this.delegate = delegate;
    }

    /**
     * Wraps {@code raw}, a result set of {@code statement} (a wrapper, or {@code null} for
     * metadata).
     */
    static ResultSetWrapper of(ConnectionWrapper connection, Statement statement, ResultSet raw) {
      return raw == null ? null : new GeneratedResultSet(connection, statement, raw);
    }

    /**
     * As {@link #of}, but returns {@code last} again when it wraps the same result set: a
     * statement asked twice for its current result set hands out one wrapper.
     */
    static ResultSetWrapper reuse(ResultSetWrapper last, ConnectionWrapper connection,
        Statement statement, ResultSet raw) {
      return last != null && last.delegate == raw ? last : of(connection, statement, raw);
    }

    /** Passed on; a recording keeps the row left first, and the whole result at its end. */
    @Override
    public final boolean next() throws SQLException {
      Recording r = recording;
      return r == null ? delegate.next() : recordedNext(r);
    }

    private boolean recordedNext(Recording r) throws SQLException {
      r.leaving(delegate);
      boolean more;
      try {
        more = delegate.next();
      } catch (SQLException | RuntimeException e) {
        recording = null;
        r.abandoned();
        throw e;
      }
      if (!more) {
        recording = null;
        r.ended();
      }
      return more;
    }

    /** Passed on; a recording of a result closed before its end keeps nothing. */
    @Override
    public final void close() throws SQLException {
      Recording r = recording;
      if (r != null) {
        recording = null;
        r.abandoned();
      }
      delegate.close();
    }

    @Override
    public final Statement getStatement() throws SQLException {
      Object o = owner;
      if (o instanceof ConnectionWrapper) {
        Statement wrapped = ((ConnectionWrapper) o).statement(delegate.getStatement());
        if (wrapped != null) {
          owner = wrapped;
        }
        return wrapped;
      }
      return (Statement) o;
    }

  }

  /**
   * The metadata of a {@link ConnectionWrapper} ({@code getURL()} is delegated unchanged, so
   * tools that detect the database from it keep working): {@code getConnection()} returns the
   * connection wrapper and every result set returned is wrapped. Metadata queries are not gated.
   * It holds no state of its own beyond its two references.
   */
  abstract static sealed class DatabaseMetaDataWrapper implements DatabaseMetaData
      permits GeneratedDatabaseMetaData {
    private final ConnectionWrapper connection;
    /** The driver's metadata. */
    final DatabaseMetaData delegate;

    DatabaseMetaDataWrapper(ConnectionWrapper connection, DatabaseMetaData delegate) {
      this.connection = connection;
      this.delegate = delegate;
    }

    /** Wraps a result set of a metadata query; the generated {@code getTables}... call it. */
    final ResultSet wrap(ResultSet raw) {
      return ResultSetWrapper.of(connection, null, raw);
    }

    @Override
    public final Connection getConnection() throws SQLException {
      return connection;
    }

  }
}
