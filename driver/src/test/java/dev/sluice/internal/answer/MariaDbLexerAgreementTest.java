package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.internal.sql.Lexer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Lexer#MYSQL} against its oracle, a real MariaDB, as {@link LexerAgreementTest} holds the
 * PostgreSQL lexer to PostgreSQL: a corpus of hand-written and generated texts (seeded), each a
 * {@code SELECT} whose items are calls of probe functions ({@code it_probe_0()} …
 * {@code it_probe_9()}), strings in single and double quotes, backquoted names and MySQL's
 * comments ({@code #}, {@code --} before a blank and not before anything else, block comments
 * that do not nest) holding such calls as text. The server makes each a view and writes back
 * its definition, calls as {@code `it_probe_1`()}, every comment and string resolved; what
 * {@link Calls} reads must agree: the same probes called, and every column's name among the
 * names it read. A text Sluice finds unplaceable (a backslash in a string, whose meaning is the
 * session's {@code NO_BACKSLASH_ESCAPES}; an executable {@code /*! … *}{@code /}) is never
 * answered, so it only counts as such; the corpus must still be mostly placed.
 *
 * <p>Runs only when {@code IT_SLUICE_MARIADB_URL} names a MariaDB (for example
 * {@code jdbc:mariadb://127.0.0.1:3306/test?user=root}); skipped otherwise.
 */
class MariaDbLexerAgreementTest {
  private static final int GENERATED = 400;
  private static final String[] FRAGMENTS = {"it_probe_1()", " ", "'", "\"", "`", "--", "-- ",
      "#", "/*", "*/", "\r", "\n", "x", "\u00e9", ";", "it_probe_2(", ")", "-", "*", "/", "''",
      "\"\"", "``"};
  private static final Pattern CALL = Pattern.compile("`(it_probe_\\d)`\\(");

  private static Connection connection;

  @BeforeAll
  static void start() throws SQLException {
    String url = System.getenv(MariaDbFidelityTest.ENV);
    assumeTrue(url != null && !url.isBlank(), MariaDbFidelityTest.ENV + " names no MariaDB");
    connection = DriverManager.getConnection(url);
    try (Statement s = connection.createStatement()) {
      for (int k = 0; k < 10; k++) {
        s.execute("CREATE OR REPLACE FUNCTION it_probe_" + k + "() RETURNS int DETERMINISTIC"
            + " NO SQL RETURN " + k);
      }
    }
  }

  @AfterAll
  static void stop() throws SQLException {
    if (connection != null) {
      try (Statement s = connection.createStatement()) {
        s.execute("DROP VIEW IF EXISTS it_lex_v");
      }
      connection.close();
    }
  }

  private static final List<String> HAND = List.of(
      "SELECT it_probe_1() AS a # it_probe_2()\n, it_probe_3() AS b",
      "SELECT it_probe_1() AS a -- it_probe_2()\n, it_probe_3() AS b",
      "SELECT it_probe_1() AS a --\tit_probe_2()\n, it_probe_3() AS b",
      "SELECT 1 --1 AS a, it_probe_2() AS b",
      "SELECT 5 --it_probe_1() AS a",
      "SELECT /* /* it_probe_1() */ it_probe_2() AS a",
      "SELECT /*/ it_probe_1() */ it_probe_2() AS a",
      "SELECT 'it''s it_probe_1()' AS a, it_probe_2() AS b # '",
      "SELECT \"it's it_probe_1()\" AS a, it_probe_2() AS b",
      "SELECT 'a' 'it_probe_1()' AS a, it_probe_2() AS b",
      "SELECT `it_probe_1`() AS a, `a``b it_probe_2()` AS b",
      "SELECT 1 AS `it_probe_1()`, it_probe_2() AS b",
      "SELECT test.it_probe_1() AS a, `test`.`it_probe_2`() AS b",
      "SELECT N'it_probe_1()' AS a, X'1F' AS b, 0x1F AS c, b'101' AS d, it_probe_2() AS e",
      "SELECT _utf8mb4'it_probe_1()' AS a, it_probe_2() AS b",
      "SELECT 1.5e3 AS a, .5 AS b, 1e AS c, it_probe_1() AS d",
      "SELECT it_probe_1() AS a, '#' AS b, '--' AS c, '/*' AS d, it_probe_2() AS e",
      "SELECT it_probe_1() AS a\r\n# x\r\n, it_probe_2() AS b",
      "SELECT 'a\\'it_probe_1()' AS a, it_probe_2() AS b",
      "SELECT 1 /*! , it_probe_1() */ AS a",
      "SELECT 1 /*!100000 , it_probe_1() */ AS a");

  @Test
  void callsAndNames_agreeWithMariaDb_overTheCorpus() throws SQLException {
    List<String> corpus = new ArrayList<>(HAND);
    Random random = new Random(39);
    for (int i = 0; i < GENERATED; i++) {
      corpus.add(generated(random));
    }
    int agreed = 0;
    int unplaceable = 0;
    List<String> refused = new ArrayList<>();
    List<String> disagreed = new ArrayList<>();
    for (String sql : corpus) {
      Server server = ask(sql);
      if (server == null) {
        refused.add(sql);
        continue;
      }
      Calls ours = Calls.of(sql, Lexer.MYSQL, false);
      if (!ours.placeable()) {
        unplaceable++; // never kept nor answered: safe whatever the server reads
        continue;
      }
      Set<String> probes = new TreeSet<>();
      for (String f : ours.functions()) {
        if (f.startsWith("it_probe_")) {
          probes.add(f);
        }
      }
      if (!probes.equals(server.probes) || !ours.names().containsAll(server.columns)) {
        disagreed.add(printable(sql) + "\n    server: " + server.probes + " " + server.columns
            + "\n    ours:   " + probes + " " + ours.names());
      } else {
        agreed++;
      }
    }
    System.out.printf("[figures] MySQL lexer corpus: %d texts, %d agreed with MariaDB, %d"
        + " unplaceable to Sluice (never answered), %d refused by MariaDB%n", corpus.size(),
        agreed, unplaceable, refused.size());
    assertThat(disagreed).as("texts read differently from MariaDB").isEmpty();
    assertThat(agreed).as("texts placed and agreed").isGreaterThanOrEqualTo(250);
  }

  /** What the server made of a text: the probes it calls and its columns; {@code null}: an error. */
  private record Server(Set<String> probes, Set<String> columns) {}

  private static Server ask(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.setEscapeProcessing(false); // the driver hands the text over as it is
      try {
        s.execute("CREATE OR REPLACE VIEW it_lex_v AS " + sql);
      } catch (SQLException e) {
        return null;
      }
    }
    String definition;
    try (PreparedStatement p = connection.prepareStatement("SELECT VIEW_DEFINITION FROM"
        + " information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
      p.setString(1, "it_lex_v");
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        definition = rs.getString(1);
      }
    }
    Set<String> probes = new TreeSet<>();
    Matcher m = CALL.matcher(definition);
    while (m.find()) {
      probes.add(m.group(1));
    }
    Set<String> columns = new TreeSet<>();
    try (PreparedStatement p = connection.prepareStatement("SELECT COLUMN_NAME FROM"
        + " information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
      p.setString(1, "it_lex_v");
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          columns.add(rs.getString(1).toLowerCase(java.util.Locale.ROOT));
        }
      }
    }
    return new Server(probes, columns);
  }

  /** A SELECT of 1 to 5 items, each named, with blanks or comments between its tokens. */
  private static String generated(Random r) {
    StringBuilder sql = new StringBuilder("SELECT").append(gap(r));
    int items = 1 + r.nextInt(5);
    for (int i = 0; i < items; i++) {
      if (i > 0) {
        sql.append(gap(r)).append(',').append(gap(r));
      }
      sql.append(item(r)).append(gap(r)).append("AS").append(gap(r)).append(alias(r, i));
    }
    return sql.append(gap(r)).toString();
  }

  private static String item(Random r) {
    int k = r.nextInt(10);
    switch (r.nextInt(8)) {
      case 0:
        return "it_probe_" + k + "()";
      case 1:
        return "'" + hidden(r).replace("'", "''") + "'";
      case 2:
        return "\"" + hidden(r).replace("\"", "\"\"") + "\"";
      case 3:
        return "`it_probe_" + k + "`()";
      case 4:
        return "test" + "." + "it_probe_" + k + "()";
      case 5:
        return new String[] {"1.5e3", "0x1F", "X'1F'", ".5", "42", "1 --1", "5 - -2"}[
            r.nextInt(7)];
      case 6:
        return "it_probe_" + k + "(" + gap(r) + ")";
      default:
        return "_utf8mb4'" + hidden(r).replace("'", "''") + "'";
    }
  }

  private static String alias(Random r, int i) {
    if (r.nextBoolean()) {
      return "c" + i;
    }
    String name = ("c" + i + " " + hidden(r).replace("`", "")).strip();
    return "`" + name.substring(0, Math.min(16, name.length())).strip() + "``q`";
  }

  /** Blanks or a comment: block comments (not nested), line comments ended by \n. */
  private static String gap(Random r) {
    switch (r.nextInt(7)) {
      case 0:
        return " ";
      case 1:
        return "\n\t";
      case 2:
        return " /*" + hidden(r).replace("*/", "* /").replace("/*!", "/* !")
            + (r.nextBoolean() ? " " : "") + "*/ ";
      case 3:
        return " -- " + hidden(r).replace("\r", "").replace("\n", "") + "\n";
      case 4:
        return " #" + hidden(r).replace("\r", "").replace("\n", "") + "\n";
      case 5:
        return "/**/";
      default:
        return "  ";
    }
  }

  /** Text that would be code if a boundary were misplaced. */
  private static String hidden(Random r) {
    StringBuilder b = new StringBuilder();
    int n = 1 + r.nextInt(6);
    for (int i = 0; i < n; i++) {
      b.append(FRAGMENTS[r.nextInt(FRAGMENTS.length)]);
    }
    return b.toString();
  }

  private static String printable(String sql) {
    return sql.replace("\r", "\\r").replace("\n", "\\n");
  }
}
