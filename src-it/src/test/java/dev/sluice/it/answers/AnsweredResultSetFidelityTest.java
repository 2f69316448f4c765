package dev.sluice.it.answers;

import static dev.sluice.it.answers.AttackBench.critical;
import static dev.sluice.it.answers.AttackBench.readText;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.StaleResultWarning;
import dev.sluice.it.support.Servers;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.PGConnection;

/**
 * The answered {@code ResultSet} behaves as the live one (issue 39, item 4), on the real
 * PostgreSQL through HikariCP and Sluice ({@link AttackBench}): each scenario runs once on a
 * caller's connection at {@code CRITICAL} (admitted: the live pgjdbc result) and once at
 * {@code NORMAL} (refused, and answered from the result another connection kept), and what each
 * operation gave — its value, or its exception's JDBC class and SQLState — must be the same.
 * Both as a {@code Statement} with text and as a {@code PreparedStatement}.
 *
 * <p>The caller reads in pgjdbc's binary transfer (as a statement does once server-prepared,
 * after five executions) while the kept result was read in text transfer (a statement's first
 * executions): an answer must not depend on how the read that kept it was transferred. Where
 * the two transfers differ, the answer does what binary transfer does when that is to throw
 * ({@code getDate} of a {@code time}); a bytea's {@code getString} is not compared (in binary
 * transfer pgjdbc gives the array's identity, {@code [B@…}). A result is shown as "a result",
 * not by identity: HikariCP's {@code getResultSet()} returns a new proxy of the driver's.
 */
class AnsweredResultSetFidelityTest {
  private static final String SELECT =
      "select id, name as \"Name\", amount, at, day, ok, raw from fid_rs order by id";

  @BeforeAll
  static void schema() {
    Servers.postgres().execute("drop table if exists fid_rs",
        "create table fid_rs(id int4 primary key, name text not null, amount numeric(10,2),"
            + " at time, day date, ok bool, raw bytea)",
        "insert into fid_rs values (1, 'one', 12.50, '13:14:15.25', '2024-02-29', true,"
            + " '\\x01ff'), (2, 'two', null, null, null, null, null)");
  }

  /** How the scenario's statement reads: as text, or prepared. */
  enum Kind { TEXT, PREPARED }

  static Stream<Arguments> scenarios() {
    List<Arguments> all = new ArrayList<>();
    for (String name : List.of("getters", "metadata", "cursor", "the statement's result",
        "fetch size and the rest", "statement closed", "connection closed", "executed again",
        "result closed", "executed, then its result", "run again by the driver")) {
      for (Kind kind : Kind.values()) {
        if (kind == Kind.PREPARED || !name.startsWith("executed, then")) {
          all.add(Arguments.of(name, kind)); // Statement.execute(String) is never answered
        }
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("scenarios")
  void answered_behavesAsTheLiveResult(String name, Kind kind) throws Exception {
    Scenario scenario = scenario(name);
    try (AttackBench bench = new AttackBench(Servers.postgres().jdbcUrl())) {
      bench.trip();
      Run live = critical(() -> run(bench, kind, scenario));
      assertThat(live.answered).as("the live run").isFalse();
      keep(bench, kind); // in text transfer, after the live run's (binary) result was kept

      Run answered = run(bench, kind, scenario);

      assertThat(answered.answered).as("answered: %s", answered.seen).isTrue();
      assertThat(differences(live.seen, answered.seen)).as("live, then answered").isEmpty();
    }
  }

  /** Each operation whose outcome differs, live then answered (the runs' lengths are equal). */
  private static List<String> differences(List<String> live, List<String> answered) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < Math.max(live.size(), answered.size()); i++) {
      String l = i < live.size() ? live.get(i) : "(none)";
      String a = i < answered.size() ? answered.get(i) : "(none)";
      if (!l.equals(a)) {
        out.add(l + "  |  " + a);
      }
    }
    return out;
  }

  /** A connection whose read of {@link #SELECT} in text transfer is kept (at CRITICAL). */
  private static void keep(AttackBench bench, Kind kind) throws SQLException {
    try (Connection c = bench.sluice.getConnection()) {
      critical(() -> readText(c, "select 1")); // its session read
      c.unwrap(PGConnection.class).setPrepareThreshold(0); // text transfer (a pooled connection)
      critical(() -> {
        try (Statement s = kind == Kind.TEXT ? c.createStatement() : c.prepareStatement(SELECT);
            ResultSet rs = kind == Kind.TEXT ? s.executeQuery(SELECT)
                : ((PreparedStatement) s).executeQuery()) {
          while (rs.next()) {
            rs.getObject(1);
          }
        }
        return null;
      });
    }
  }

  /** Runs {@code scenario} on a fresh connection of the bench, reading in binary transfer. */
  private static Run run(AttackBench bench, Kind kind, Scenario scenario) throws SQLException {
    Connection c = bench.sluice.getConnection();
    try {
      critical(() -> readText(c, "select 1")); // a session Sluice has read
      c.unwrap(PGConnection.class).setPrepareThreshold(-1); // binary transfer from the start
      Run run = new Run(c, kind);
      scenario.run(run);
      return run;
    } finally {
      c.close();
    }
  }

  interface Scenario {
    void run(Run r) throws SQLException;
  }

  interface Op {
    Object get() throws SQLException;
  }

  /** One run of a scenario: what each operation gave, in order. */
  static final class Run {
    final Connection connection;
    final Kind kind;
    final List<String> seen = new ArrayList<>();
    boolean answered;

    Run(Connection connection, Kind kind) {
      this.connection = connection;
      this.kind = kind;
    }

    Statement statement() throws SQLException {
      return kind == Kind.TEXT ? connection.createStatement()
          : connection.prepareStatement(SELECT);
    }

    ResultSet query(Statement s) throws SQLException {
      ResultSet rs = kind == Kind.TEXT ? s.executeQuery(SELECT)
          : ((PreparedStatement) s).executeQuery();
      answered |= rs.getWarnings() instanceof StaleResultWarning;
      return rs;
    }

    boolean execute(Statement s) throws SQLException {
      boolean result = kind == Kind.TEXT ? s.execute(SELECT) : ((PreparedStatement) s).execute();
      ResultSet rs = s.getResultSet();
      answered |= rs != null && rs.getWarnings() instanceof StaleResultWarning;
      return result;
    }

    /** Notes what {@code op} gives; {@code statement} and {@code result} are named, not shown. */
    void see(String what, Op op, Object statement, Object result) {
      String outcome;
      try {
        Object v = op.get();
        outcome = v == null ? "null" : v == statement ? "the statement"
            : v instanceof ResultSet ? "a result" // HikariCP's getResultSet makes a new proxy
            : v instanceof byte[] b ? Arrays.toString(b)
            : v instanceof java.util.Date d ? v.getClass().getName() + ":" + v + "@" + d.getTime()
            : v.getClass().getName() + ":" + v;
      } catch (SQLException e) {
        outcome = "throws " + jdbcClass(e) + " " + e.getSQLState();
      } catch (RuntimeException e) {
        outcome = "throws " + e.getClass().getName();
      }
      seen.add(what + " -> " + outcome);
    }

    void see(String what, Op op) {
      see(what, op, null, null);
    }
  }

  /** The exception's nearest class of {@code java.sql}: pgjdbc's own classes extend those. */
  static String jdbcClass(SQLException e) {
    Class<?> c = e.getClass();
    while (!c.getName().startsWith("java.sql.")) {
      c = c.getSuperclass();
    }
    return c.getSimpleName();
  }

  private static Scenario scenario(String name) {
    return switch (name) {
      case "getters" -> AnsweredResultSetFidelityTest::getters;
      case "metadata" -> AnsweredResultSetFidelityTest::metadata;
      case "cursor" -> AnsweredResultSetFidelityTest::cursor;
      case "the statement's result" -> AnsweredResultSetFidelityTest::statementsResult;
      case "fetch size and the rest" -> AnsweredResultSetFidelityTest::fetchSizeAndTheRest;
      case "statement closed" -> AnsweredResultSetFidelityTest::statementClosed;
      case "connection closed" -> AnsweredResultSetFidelityTest::connectionClosed;
      case "executed again" -> AnsweredResultSetFidelityTest::executedAgain;
      case "result closed" -> AnsweredResultSetFidelityTest::resultClosed;
      case "executed, then its result" -> AnsweredResultSetFidelityTest::executedThenItsResult;
      case "run again by the driver" -> AnsweredResultSetFidelityTest::runAgainByTheDriver;
      default -> throw new IllegalArgumentException(name);
    };
  }

  /** Every kept column's getters on a row of values and on a row of NULLs, and around them. */
  private static void getters(Run r) throws SQLException {
    try (Statement s = r.statement(); ResultSet rs = r.query(s)) {
      r.see("getInt before next", () -> rs.getInt(1));
      for (int row = 1; row <= 2; row++) {
        r.see("next", rs::next);
        for (int c = 1; c <= 7; c++) {
          int column = c;
          r.see(row + "." + c + " getObject", () -> rs.getObject(column));
          r.see(row + "." + c + " wasNull", rs::wasNull);
          if (c != 7) { // pgjdbc's binary getString of a bytea is the array's identity, [B@…
            r.see(row + "." + c + " getString", () -> rs.getString(column));
          }
        }
        r.see(row + " getInt(id)", () -> rs.getInt("id"));
        r.see(row + " getString(NAME)", () -> rs.getString("NAME"));
        r.see(row + " getString(name)", () -> rs.getString("name"));
        r.see(row + " getString(Name)", () -> rs.getString("Name"));
        r.see(row + " getObject(1, Integer)", () -> rs.getObject(1, Integer.class));
        r.see(row + " getObject(1, Long)", () -> rs.getObject(1, Long.class));
        r.see(row + " getObject(1, String)", () -> rs.getObject(1, String.class));
        r.see(row + " getObject(amount, BigDecimal)",
            () -> rs.getObject("amount", BigDecimal.class));
        r.see(row + " getBigDecimal(3)", () -> rs.getBigDecimal(3));
        r.see(row + " wasNull", rs::wasNull);
        r.see(row + " getInt(3)", () -> rs.getInt(3));
        r.see(row + " wasNull", rs::wasNull);
        r.see(row + " getObject(at, LocalTime)", () -> rs.getObject("at", LocalTime.class));
        r.see(row + " getObject(day, LocalDate)", () -> rs.getObject("day", LocalDate.class));
        r.see(row + " getTime(at)", () -> rs.getTime("at"));
        r.see(row + " getDate(at): a time", () -> rs.getDate("at"));
        r.see(row + " getTimestamp(at): a time", () -> rs.getTimestamp("at"));
        r.see(row + " getDate(day)", () -> rs.getDate("day"));
        r.see(row + " getTime(day): a date", () -> rs.getTime("day"));
        r.see(row + " getBoolean(ok)", () -> rs.getBoolean("ok"));
        r.see(row + " getObject(ok, Boolean)", () -> rs.getObject("ok", Boolean.class));
        r.see(row + " getBytes(raw)", () -> rs.getBytes("raw"));
        r.see(row + " getObject(raw, byte[])", () -> rs.getObject("raw", byte[].class));
        r.see(row + " getInt(Name): text", () -> rs.getInt("Name"));
        r.see(row + " getInt(missing)", () -> rs.getInt("missing"));
        r.see(row + " getInt(0)", () -> rs.getInt(0));
        r.see(row + " getInt(8)", () -> rs.getInt(8));
      }
      r.see("next at the end", rs::next);
      r.see("getInt after the end", () -> rs.getInt(1));
      r.see("findColumn(ID)", () -> rs.findColumn("ID"));
      r.see("findColumn(name)", () -> rs.findColumn("name"));
      r.see("findColumn(missing)", () -> rs.findColumn("missing"));
    }
  }

  /** Every property of every column, and the count. */
  private static void metadata(Run r) throws SQLException {
    try (Statement s = r.statement(); ResultSet rs = r.query(s)) {
      ResultSetMetaData meta = rs.getMetaData();
      r.see("getColumnCount", meta::getColumnCount);
      List<Method> properties = Arrays.stream(ResultSetMetaData.class.getMethods())
          .filter(m -> m.getParameterCount() == 1 && m.getParameterTypes()[0] == int.class)
          .sorted(java.util.Comparator.comparing(Method::getName)).toList();
      for (int c = 1; c <= 7; c++) {
        for (Method m : properties) {
          int column = c;
          r.see(c + " " + m.getName(), () -> {
            try {
              return m.invoke(meta, column);
            } catch (java.lang.reflect.InvocationTargetException e) {
              throw (SQLException) e.getCause();
            } catch (IllegalAccessException e) {
              throw new IllegalStateException(e);
            }
          });
        }
      }
    }
  }

  /** Where the cursor is at each step, and the moves a forward-only result refuses. */
  private static void cursor(Run r) throws SQLException {
    try (Statement s = r.statement(); ResultSet rs = r.query(s)) {
      position(r, rs, "before");
      r.see("absolute(1)", () -> rs.absolute(1));
      r.see("relative(1)", () -> rs.relative(1));
      r.see("beforeFirst", () -> {
        rs.beforeFirst();
        return "done";
      });
      r.see("afterLast", () -> {
        rs.afterLast();
        return "done";
      });
      r.see("first", rs::first);
      r.see("last", rs::last);
      r.see("previous", rs::previous);
      r.see("moveToCurrentRow", () -> {
        rs.moveToCurrentRow();
        return "done";
      });
      r.see("refreshRow", () -> {
        rs.refreshRow();
        return "done";
      });
      r.see("updateInt", () -> {
        rs.updateInt(1, 9);
        return "done";
      });
      for (int step = 1; step <= 3; step++) {
        r.see("next", rs::next);
        position(r, rs, "after next " + step);
      }
    }
  }

  private static void position(Run r, ResultSet rs, String when) {
    r.see(when + " getRow", rs::getRow);
    r.see(when + " isBeforeFirst", rs::isBeforeFirst);
    r.see(when + " isFirst", rs::isFirst);
    r.see(when + " isLast", rs::isLast);
    r.see(when + " isAfterLast", rs::isAfterLast);
  }

  /** The statement's view of the result it returned: getResultSet, the counts, what follows. */
  private static void statementsResult(Run r) throws SQLException {
    try (Statement s = r.statement()) {
      ResultSet rs = r.query(s);
      r.see("getStatement", rs::getStatement, s, rs);
      r.see("getResultSet", s::getResultSet, s, rs);
      r.see("getResultSet again", s::getResultSet, s, rs);
      r.see("getUpdateCount", s::getUpdateCount);
      r.see("getLargeUpdateCount", s::getLargeUpdateCount);
      r.see("next", rs::next);
      r.see("getMoreResults", s::getMoreResults);
      r.see("isClosed after getMoreResults", rs::isClosed);
      r.see("getString after getMoreResults", () -> rs.getString(1));
      r.see("getResultSet after getMoreResults", s::getResultSet, s, rs);
      r.see("getUpdateCount after getMoreResults", s::getUpdateCount);
    }
  }

  /** What the caller set on the statement, and the result's own settings. */
  private static void fetchSizeAndTheRest(Run r) throws SQLException {
    try (Statement s = r.statement()) {
      s.setFetchSize(7);
      try (ResultSet rs = r.query(s)) {
        r.see("getFetchSize", rs::getFetchSize);
        r.see("setFetchSize(3)", () -> {
          rs.setFetchSize(3);
          return "done";
        });
        r.see("getFetchSize after", rs::getFetchSize);
        r.see("statement's getFetchSize", s::getFetchSize);
        r.see("setFetchSize(-1)", () -> {
          rs.setFetchSize(-1);
          return "done";
        });
        r.see("getFetchDirection", rs::getFetchDirection);
        r.see("setFetchDirection(REVERSE)", () -> {
          rs.setFetchDirection(ResultSet.FETCH_REVERSE);
          return "done";
        });
        r.see("setFetchDirection(FORWARD)", () -> {
          rs.setFetchDirection(ResultSet.FETCH_FORWARD);
          return "done";
        });
        r.see("getType", rs::getType);
        r.see("getConcurrency", rs::getConcurrency);
        r.see("getHoldability", rs::getHoldability);
        r.see("getCursorName", rs::getCursorName);
        r.see("isWrapperFor(ResultSet)", () -> rs.isWrapperFor(ResultSet.class));
        r.see("unwrap(ResultSet) is a ResultSet",
            () -> rs.unwrap(ResultSet.class) instanceof ResultSet);
        r.see("getStatement", rs::getStatement, s, rs);
        r.see("clearWarnings", () -> {
          rs.clearWarnings();
          return "done";
        });
      }
    }
  }

  private static void afterClose(Run r, ResultSet rs, Statement s, String what) {
    r.see(what + ": isClosed", rs::isClosed);
    r.see(what + ": next", rs::next);
    r.see(what + ": getString", () -> rs.getString(1));
    r.see(what + ": getInt by label", () -> rs.getInt("id"));
    r.see(what + ": wasNull", rs::wasNull);
    r.see(what + ": getMetaData", () -> rs.getMetaData() != null);
    r.see(what + ": getStatement", rs::getStatement, s, rs);
    r.see(what + ": getFetchSize", rs::getFetchSize);
    r.see(what + ": getType", rs::getType);
    r.see(what + ": getRow", rs::getRow);
    r.see(what + ": findColumn", () -> rs.findColumn("id"));
    r.see(what + ": getWarnings is null", () -> rs.getWarnings() == null);
    r.see(what + ": close", () -> {
      rs.close();
      return "done";
    });
  }

  private static void statementClosed(Run r) throws SQLException {
    Statement s = r.statement();
    ResultSet rs = r.query(s);
    r.see("next", rs::next);
    s.close();
    afterClose(r, rs, s, "statement closed");
  }

  private static void connectionClosed(Run r) throws SQLException {
    Statement s = r.statement();
    ResultSet rs = r.query(s);
    r.see("next", rs::next);
    r.connection.close();
    r.see("statement isClosed", s::isClosed);
    afterClose(r, rs, s, "connection closed");
  }

  private static void resultClosed(Run r) throws SQLException {
    try (Statement s = r.statement()) {
      ResultSet rs = r.query(s);
      rs.close();
      afterClose(r, rs, s, "result closed");
      r.see("getResultSet after the result closed", s::getResultSet, s, rs);
    }
  }

  private static void executedAgain(Run r) throws SQLException {
    try (Statement s = r.statement()) {
      ResultSet first = r.query(s);
      r.see("next", first::next);
      ResultSet second = r.query(s);
      afterClose(r, first, s, "the first, executed again");
      r.see("the second: next", second::next);
      r.see("the second: getString", () -> second.getString(2));
      r.see("getResultSet", s::getResultSet, s, second);
    }
  }

  private static void executedThenItsResult(Run r) throws SQLException {
    try (Statement s = r.statement()) {
      r.see("execute", () -> r.execute(s));
      ResultSet rs = s.getResultSet();
      r.see("getResultSet", s::getResultSet, s, rs);
      r.see("getUpdateCount", s::getUpdateCount);
      r.see("getStatement", rs::getStatement, s, rs);
      r.see("next", rs::next);
      r.see("getString", () -> rs.getString(2));
      r.see("getMoreResults", s::getMoreResults);
      r.see("isClosed after getMoreResults", rs::isClosed);
      r.see("getResultSet after getMoreResults", s::getResultSet, s, rs);
      r.see("getUpdateCount after getMoreResults", s::getUpdateCount);
    }
  }

  /**
   * The statement runs again, admitted (CRITICAL), through a generated execution: the driver's
   * result is the statement's now, and the earlier one (an answer, in the refused run) closed.
   */
  private static void runAgainByTheDriver(Run r) throws SQLException {
    try (Statement s = r.statement()) {
      ResultSet first = r.query(s);
      r.see("next", first::next);
      r.see("run again", () -> critical(() -> r.kind == Kind.TEXT ? s.execute("select 2 as two")
          : ((PreparedStatement) s).executeUpdate()));
      r.see("the first: isClosed", first::isClosed);
      r.see("the first: getString", () -> first.getString(2));
      ResultSet now = s.getResultSet();
      r.see("getResultSet", () -> now, s, first);
      if (now != null) {
        r.see("its next", now::next);
        r.see("its getString", () -> now.getString(1));
      }
      r.see("getUpdateCount", s::getUpdateCount);
    }
  }
}
