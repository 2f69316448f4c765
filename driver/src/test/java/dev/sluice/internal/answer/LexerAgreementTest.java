package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.sql.Lexer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one lexer against its oracle, a real PostgreSQL (17): a corpus of hand-written and
 * generated texts (seeded), each a {@code SELECT} whose items are calls of probe functions
 * ({@code it_probe_0()} … {@code it_probe_9()}) and strings, escape strings, dollar quotes,
 * quoted names and comments (nested, ended by {@code \r} or {@code \n}) that hold such calls as
 * text. The server makes each a view and says which probes it calls ({@code pg_depend}: the
 * probes are the application's functions, so recorded) and what its columns are named; what
 * {@link Calls} reads with {@link Lexer#POSTGRES} must agree: the same probes called, and every
 * column's name among the names it read (so a quoted name ends and unescapes where the server's
 * does). A boundary misplaced by one character shows as a probe found or missed.
 */
class LexerAgreementTest {
  private static final int GENERATED = 400;
  private static final String[] FRAGMENTS = {"it_probe_1()", " ", "'", "\"", "$$", "$q$", "--",
      "/*", "*/", "\\", "\r", "\n", "x", "\u00e9", "\u00a0", "e'", ";", "it_probe_2 (", ")",
      "E'", "U&'", "-", "*", "/"};
  private static final String[] TAGS = {"", "q", "x1", "\u00e9", "_"};

  private static EmbeddedPostgres postgres;
  private static Connection connection;

  @BeforeAll
  static void start() throws IOException, SQLException {
    postgres = EmbeddedPostgres.builder().start();
    connection = postgres.getPostgresDatabase().getConnection();
    try (Statement s = connection.createStatement()) {
      for (int k = 0; k < 10; k++) {
        s.execute("CREATE FUNCTION it_probe_" + k + "() RETURNS int IMMUTABLE LANGUAGE sql"
            + " AS $$ SELECT " + k + " $$");
      }
      // the text reaches the server as a value: pgjdbc's own parser never reads it
      s.execute("CREATE FUNCTION it_lex_view(text) RETURNS void LANGUAGE plpgsql AS $$ BEGIN"
          + " DROP VIEW IF EXISTS it_lex_v; EXECUTE 'CREATE VIEW it_lex_v AS ' || $1; END $$");
    }
  }

  @AfterAll
  static void stop() throws IOException, SQLException {
    if (connection != null) {
      connection.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  private static final List<String> HAND = List.of(
      "SELECT it_probe_1() AS a -- it_probe_2()\r, it_probe_3() AS b",
      "SELECT it_probe_1() AS a -- it_probe_2()\n, it_probe_3() AS b",
      "SELECT /* a /* it_probe_1() */ it's */ it_probe_2() AS a -- '",
      "SELECT /*/ it_probe_1() */ it_probe_2() AS a",
      "SELECT /**/it_probe_1() AS a, 2*/*it_probe_2()*/3 AS b",
      "SELECT E'it\\'s it_probe_1()' AS a, it_probe_2() AS b -- '",
      "SELECT e'\\\\' AS a, it_probe_1() AS b",
      "SELECT E'a''b it_probe_1()' AS a, it_probe_2() AS b",
      "SELECT 'it''s it_probe_1()' AS a, it_probe_2() AS b",
      "SELECT $$ it's it_probe_1() $$ AS a, it_probe_2() AS b -- '",
      "SELECT $q$ $$ it_probe_1() $$ $q$ AS a, it_probe_2() AS b",
      "SELECT $\u00e9$ it_probe_1() $\u00e9$ AS a, it_probe_2() AS b",
      "SELECT $\u00a0$x' it_probe_1() $\u00a0$ AS a, it_probe_2() AS b -- '",
      "SELECT 1 AS \"a\"\"it_probe_1()\", it_probe_2() AS b",
      "SELECT \"it_probe_1\"() AS a, public.\"it_probe_2\" ( ) AS b",
      "SELECT public . it_probe_1 () AS a",
      "SELECT it_probe_1/* c */() AS a",
      "SELECT U&'it_probe_1()' AS a, it_probe_2() AS b",
      "SELECT N'it_probe_1()' AS a, X'1F' AS b, B'101' AS c, it_probe_2() AS d",
      "SELECT 0x1F AS a, 1_000 AS b, 1.5e-3 AS c, .5 AS d, it_probe_1() AS e",
      "SELECT 1 AS a$b, it_probe_1() AS \"c d\"",
      "SELECT it_probe_1() AS a\u000b-- it_probe_2()\n, it_probe_3() AS b",
      "SELECT it_probe_1() AS a\f, it_probe_2() AS b",
      "SELECT it_probe_1() AS \"-- it_probe_2()\", '/*' AS b, it_probe_3() AS c");

  @Test
  void callsAndNames_agreeWithPostgreSql_overTheCorpus() throws SQLException {
    List<String> corpus = new ArrayList<>(HAND);
    Random random = new Random(38);
    for (int i = 0; i < GENERATED; i++) {
      corpus.add(generated(random));
    }
    int agreed = 0;
    List<String> refused = new ArrayList<>();
    List<String> disagreed = new ArrayList<>();
    for (String sql : corpus) {
      Server server = ask(sql);
      if (server == null) {
        refused.add(sql);
        continue;
      }
      Calls ours = Calls.of(sql, Lexer.POSTGRES, false);
      Set<String> probes = new TreeSet<>();
      for (String f : ours.functions()) {
        if (f.startsWith("it_probe_")) {
          probes.add(f);
        }
      }
      if (!ours.placeable() || !probes.equals(server.probes)
          || !ours.names().containsAll(server.columns)) {
        disagreed.add(printable(sql) + "\n    server: " + server.probes + " " + server.columns
            + "\n    ours:   " + probes + " " + ours.names() + " placeable " + ours.placeable());
      } else {
        agreed++;
      }
    }
    System.out.printf("[figures] lexer corpus: %d texts, %d agreed with PostgreSQL, %d refused by"
        + " it (the generator's slips)%n", corpus.size(), agreed, refused.size());
    assertThat(disagreed).as("texts read differently from PostgreSQL").isEmpty();
    assertThat(refused.size()).as("texts PostgreSQL refused: %s", refused)
        .isLessThan(corpus.size() / 20);
    assertThat(agreed).isGreaterThanOrEqualTo(300);
  }

  /** What the server made of a text: the probes it calls and its columns; {@code null}: an error. */
  private record Server(Set<String> probes, Set<String> columns) {}

  private static Server ask(String sql) throws SQLException {
    try (Statement s = connection.createStatement();
        PreparedStatement view = connection.prepareStatement("SELECT it_lex_view(?)")) {
      view.setString(1, sql);
      try {
        view.execute();
      } catch (SQLException e) {
        System.out.println("[refused] " + e.getMessage().lines().findFirst().orElse(""));
        return null;
      }
      Set<String> probes = new TreeSet<>();
      try (ResultSet rs = s.executeQuery("SELECT DISTINCT p.proname FROM pg_rewrite r"
          + " JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid"
          + " AND d.refclassid = 'pg_proc'::regclass JOIN pg_proc p ON p.oid = d.refobjid"
          + " WHERE r.ev_class = 'it_lex_v'::regclass")) {
        while (rs.next()) {
          probes.add(rs.getString(1));
        }
      }
      Set<String> columns = new TreeSet<>();
      try (ResultSet rs = s.executeQuery("SELECT attname FROM pg_attribute WHERE attrelid ="
          + " 'it_lex_v'::regclass AND attnum > 0")) {
        while (rs.next()) {
          columns.add(rs.getString(1));
        }
      }
      return new Server(probes, columns);
    }
  }

  /** A SELECT of 1 to 5 items, each named, with blanks or comments between its tokens. */
  private static String generated(Random r) {
    StringBuilder sql = new StringBuilder("SELECT").append(gap(r));
    int items = 1 + r.nextInt(5);
    for (int i = 0; i < items; i++) {
      if (i > 0) {
        sql.append(gap(r)).append(',').append(gap(r));
      }
      sql.append(item(r, i)).append(gap(r)).append("AS").append(gap(r)).append(alias(r, i));
    }
    return sql.append(gap(r)).toString();
  }

  private static String item(Random r, int i) {
    int k = r.nextInt(10);
    switch (r.nextInt(9)) {
      case 0:
        return "it_probe_" + k + "()";
      case 1:
        return "'" + hidden(r).replace("\\", "").replace("'", "''") + "'";
      case 2:
        return "E'" + hidden(r).replace("\\", "\\\\").replace("'", r.nextBoolean() ? "\\'" : "''")
            + "'";
      case 3:
        String tag = "$" + TAGS[r.nextInt(TAGS.length)] + "$";
        String body = hidden(r);
        while (body.contains(tag)) {
          body = body.replace(tag, "");
        }
        return tag + (tag.equals("$$") ? body.replace("$", "") : body) + " " + tag;
      case 4:
        return "\"it_probe_" + k + "\"" + gap(r) + "(" + gap(r) + ")";
      case 5:
        return "public" + gap(r) + "." + gap(r) + "it_probe_" + k + gap(r) + "()";
      case 6:
        return "U&'" + hidden(r).replace("\\", "").replace("'", "''") + "'";
      case 7:
        return new String[] {"1.5e3", "0x1F", "1_000", ".5", "42"}[r.nextInt(5)];
      default:
        return "it_probe_" + k + gap(r) + "(" + gap(r) + ")";
    }
  }

  private static String alias(Random r, int i) {
    if (r.nextBoolean()) {
      return "c" + i;
    }
    String name = "c" + i + " " + hidden(r).replace("\"", "");
    return "\"" + name.substring(0, Math.min(16, name.length())) + "\"\"q\"";
  }

  /** Blanks or a comment: nested block comments, line comments ended by \r or \n. */
  private static String gap(Random r) {
    switch (r.nextInt(6)) {
      case 0:
        return " ";
      case 1:
        return "\n\t";
      case 2:
        return " /*" + balanced(hidden(r)) + "*/ ";
      case 3:
        return " --" + hidden(r).replace("\r", "").replace("\n", "") + (r.nextBoolean() ? "\r"
            : "\n");
      case 4:
        return "/**/";
      default:
        return "  ";
    }
  }

  /** A block comment's body, its nested comments closed as PostgreSQL nests them. */
  private static String balanced(String body) {
    StringBuilder out = new StringBuilder();
    int depth = 0;
    int i = 0;
    while (i < body.length()) {
      if (body.startsWith("/*", i)) {
        depth++;
        out.append("/*");
        i += 2;
      } else if (body.startsWith("*/", i)) {
        out.append(depth == 0 ? "* /" : "*/");
        depth = Math.max(0, depth - 1);
        i += 2;
      } else {
        out.append(body.charAt(i++));
      }
    }
    String closed = out.toString();
    if (closed.endsWith("/") || closed.endsWith("*")) {
      closed += " "; // no * or / next to the closing */
    }
    return closed + " */".repeat(depth);
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
