package dev.sluice.spring.boot;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parser for the part of PromQL that {@code observability/} uses, with its types checked, for
 * {@link OutageDashboardTest}. No PromQL parser for Java resolves from Maven Central here (the
 * official grammars are Go's and the Lezer one in JavaScript), so this is written from the
 * Prometheus documentation's grammar, and it is deliberately a subset: what it does not know it
 * refuses, so a dashboard that uses more of PromQL fails here until this learns it.
 *
 * <p>Covered: number and string literals; instant selectors with a metric name and matchers
 * {@code = != =~ !~}; range selectors {@code [5m]}; the binary operators with their precedence
 * ({@code or} &lt; {@code and unless} &lt; comparisons with optional {@code bool} &lt;
 * {@code + -} &lt; {@code * / %} &lt; {@code ^}, right-associative), with {@code on(...)} /
 * {@code ignoring(...)} and {@code group_left} / {@code group_right}; unary minus; parentheses;
 * aggregations with {@code by} / {@code without} before or after their arguments; and the
 * functions in {@link #FUNCTIONS}, each with its argument types. Not covered: offsets,
 * {@code @}, subqueries, durations in arithmetic.
 *
 * <p>Not threadsafe: one instance parses one expression.
 */
final class PromQl {
  /** The type of an expression, as PromQL's own checker names them. */
  enum Type { SCALAR, STRING, VECTOR, MATRIX }

  /** One instant or range selector: its metric name and the labels its matchers name. */
  record Selector(String metric, Map<String, String> matchers) {}

  /** What an expression names: its selectors, and the labels it groups or matches on. */
  record Parsed(Type type, List<Selector> selectors, Set<String> groupingLabels) {}

  private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "count",
      "group", "stddev", "stdvar", "topk", "bottomk", "quantile");
  private static final Map<String, List<Type>> FUNCTIONS = Map.ofEntries(
      Map.entry("rate", List.of(Type.MATRIX)),
      Map.entry("irate", List.of(Type.MATRIX)),
      Map.entry("increase", List.of(Type.MATRIX)),
      Map.entry("max_over_time", List.of(Type.MATRIX)),
      Map.entry("min_over_time", List.of(Type.MATRIX)),
      Map.entry("avg_over_time", List.of(Type.MATRIX)),
      Map.entry("changes", List.of(Type.MATRIX)),
      Map.entry("abs", List.of(Type.VECTOR)),
      Map.entry("clamp_min", List.of(Type.VECTOR, Type.SCALAR)),
      Map.entry("clamp_max", List.of(Type.VECTOR, Type.SCALAR)),
      Map.entry("round", List.of(Type.VECTOR)),
      Map.entry("vector", List.of(Type.SCALAR)),
      Map.entry("scalar", List.of(Type.VECTOR)));
  private static final List<List<String>> BINARY_LEVELS = List.of(
      List.of("or"), List.of("and", "unless"), List.of("==", "!=", ">=", "<=", ">", "<"),
      List.of("+", "-"), List.of("*", "/", "%"));
  private static final Set<String> SET_OPERATORS = Set.of("or", "and", "unless");

  private final String text;
  private int at;
  private final List<Selector> selectors = new ArrayList<>();
  private final Set<String> grouping = new LinkedHashSet<>();

  private PromQl(String text) {
    this.text = text;
  }

  /**
   * Parses {@code expression}.
   *
   * @throws IllegalArgumentException naming the position and what was expected
   */
  static Parsed parse(String expression) {
    PromQl p = new PromQl(expression);
    Type type = p.binary(0);
    p.space();
    if (p.at != p.text.length()) {
      throw p.error("the end of the expression");
    }
    return new Parsed(type, List.copyOf(p.selectors), Set.copyOf(p.grouping));
  }

  private Type binary(int level) {
    if (level == BINARY_LEVELS.size()) {
      return power();
    }
    Type left = binary(level + 1);
    while (true) {
      String op = operator(BINARY_LEVELS.get(level));
      if (op == null) {
        return left;
      }
      boolean bool = level == 2 && keyword("bool");
      boolean matching = vectorMatching();
      Type right = binary(level + 1);
      left = combine(op, left, right, bool, matching);
    }
  }

  private Type power() {
    Type base = unary();
    if (operator(List.of("^")) != null) {
      return combine("^", base, power(), false, vectorMatching());
    }
    return base;
  }

  private Type combine(String op, Type left, Type right, boolean bool, boolean matching) {
    for (Type t : List.of(left, right)) {
      if (t != Type.SCALAR && t != Type.VECTOR) {
        throw error("an instant vector or a scalar on each side of " + op + ", not a " + t);
      }
    }
    if (SET_OPERATORS.contains(op) && (left != Type.VECTOR || right != Type.VECTOR)) {
      throw error("instant vectors on both sides of " + op);
    }
    if (matching && (left != Type.VECTOR || right != Type.VECTOR)) {
      throw error("vector matching only between two instant vectors");
    }
    if (bool && left == Type.SCALAR && right == Type.SCALAR) {
      return Type.SCALAR;
    }
    return left == Type.VECTOR || right == Type.VECTOR ? Type.VECTOR : Type.SCALAR;
  }

  /** {@code on(...)} or {@code ignoring(...)}, then optionally {@code group_left(...)}. */
  private boolean vectorMatching() {
    if (!keyword("on") && !keyword("ignoring")) {
      return false;
    }
    labelList();
    if (keyword("group_left") || keyword("group_right")) {
      space();
      if (peek('(')) {
        labelList();
      }
    }
    return true;
  }

  private Type unary() {
    space();
    if (peek('-') || peek('+')) {
      at++;
      Type t = unary();
      if (t != Type.SCALAR && t != Type.VECTOR) {
        throw error("a scalar or an instant vector after a sign");
      }
      return t;
    }
    return primary();
  }

  private Type primary() {
    space();
    if (at >= text.length()) {
      throw error("an expression");
    }
    char c = text.charAt(at);
    if (c == '(') {
      at++;
      Type inner = binary(0);
      expect(')');
      return inner;
    }
    if (Character.isDigit(c) || c == '.') {
      number();
      return Type.SCALAR;
    }
    if (c == '"' || c == '\'') {
      string();
      return Type.STRING;
    }
    if (c == '{') {
      return selector(null);
    }
    String name = identifier(true);
    if (name == null) {
      throw error("an expression");
    }
    if (AGGREGATIONS.contains(name)) {
      return aggregation(name);
    }
    space();
    if (peek('(')) {
      if (!FUNCTIONS.containsKey(name)) {
        throw error("a function PromQl knows, not " + name);
      }
      return call(name);
    }
    return selector(name);
  }

  private Type aggregation(String name) {
    boolean clause = grouping();
    expect('(');
    if (name.equals("topk") || name.equals("bottomk") || name.equals("quantile")) {
      if (binary(0) != Type.SCALAR) {
        throw error("a scalar parameter of " + name);
      }
      expect(',');
    }
    if (binary(0) != Type.VECTOR) {
      throw error("an instant vector to aggregate with " + name);
    }
    expect(')');
    if (!clause) {
      grouping();
    }
    return Type.VECTOR;
  }

  private boolean grouping() {
    if (keyword("by") || keyword("without")) {
      labelList();
      return true;
    }
    return false;
  }

  private Type call(String name) {
    expect('(');
    List<Type> wanted = FUNCTIONS.get(name);
    for (int i = 0; i < wanted.size(); i++) {
      if (i > 0) {
        expect(',');
      }
      Type got = binary(0);
      if (got != wanted.get(i)) {
        throw error("a " + wanted.get(i) + " as argument " + (i + 1) + " of " + name
            + ", not a " + got);
      }
    }
    expect(')');
    return name.equals("scalar") ? Type.SCALAR : Type.VECTOR;
  }

  private Type selector(String metric) {
    Map<String, String> matchers = new java.util.LinkedHashMap<>();
    space();
    if (peek('{')) {
      at++;
      space();
      while (!peek('}')) {
        String label = identifier(false);
        if (label == null) {
          throw error("a label name");
        }
        space();
        String op = operator(List.of("=~", "!~", "!=", "="));
        if (op == null) {
          throw error("a matcher operator after " + label);
        }
        matchers.put(label, string());
        space();
        if (!peek('}')) {
          expect(',');
          space();
        }
      }
      at++;
    }
    String metricName = metric == null ? matchers.get("__name__") : metric;
    if (metricName == null) {
      throw error("a metric name");
    }
    selectors.add(new Selector(metricName, Map.copyOf(matchers)));
    space();
    if (peek('[')) {
      at++;
      space();
      duration();
      expect(']');
      return Type.MATRIX;
    }
    return Type.VECTOR;
  }

  private void labelList() {
    expect('(');
    space();
    while (!peek(')')) {
      String label = identifier(false);
      if (label == null) {
        throw error("a label name");
      }
      grouping.add(label);
      space();
      if (!peek(')')) {
        expect(',');
        space();
      }
    }
    at++;
  }

  private void duration() {
    int start = at;
    while (at < text.length()) {
      int digits = at;
      while (at < text.length() && Character.isDigit(text.charAt(at))) {
        at++;
      }
      if (at == digits) {
        break;
      }
      String[] units = {"ms", "s", "m", "h", "d", "w", "y"};
      String unit = null;
      for (String u : units) {
        if (text.startsWith(u, at)) {
          unit = u;
          break;
        }
      }
      if (unit == null) {
        throw error("a duration unit (ms, s, m, h, d, w, y)");
      }
      at += unit.length();
    }
    if (at == start) {
      throw error("a duration such as 5m");
    }
  }

  private void number() {
    int start = at;
    while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '.'
        || text.charAt(at) == 'e')) {
      at++;
    }
    try {
      Double.parseDouble(text.substring(start, at));
    } catch (NumberFormatException e) {
      at = start;
      throw error("a number");
    }
  }

  private String string() {
    space();
    if (!peek('"') && !peek('\'')) {
      throw error("a quoted string");
    }
    char quote = text.charAt(at++);
    StringBuilder value = new StringBuilder();
    while (at < text.length() && text.charAt(at) != quote) {
      if (text.charAt(at) == '\\') {
        at++;
      }
      value.append(text.charAt(at++));
    }
    if (at >= text.length()) {
      throw error("the closing " + quote);
    }
    at++;
    return value.toString();
  }

  /** An identifier; with {@code metric}, colons are allowed (recording rules' names). */
  private String identifier(boolean metric) {
    space();
    int start = at;
    while (at < text.length()) {
      char c = text.charAt(at);
      boolean ok = Character.isLetter(c) || c == '_' || (metric && c == ':')
          || (at > start && Character.isDigit(c));
      if (!ok) {
        break;
      }
      at++;
    }
    return at == start ? null : text.substring(start, at);
  }

  private boolean keyword(String word) {
    space();
    if (text.startsWith(word, at) && (at + word.length() == text.length()
        || !Character.isLetterOrDigit(text.charAt(at + word.length()))
        && text.charAt(at + word.length()) != '_')) {
      at += word.length();
      return true;
    }
    return false;
  }

  private String operator(List<String> candidates) {
    space();
    for (String op : candidates) {
      if (Character.isLetter(op.charAt(0)) ? keyword(op) : text.startsWith(op, at)
          && !(op.equals("=") && text.startsWith("==", at))
          && !((op.equals("<") || op.equals(">")) && text.startsWith("=", at + 1))) {
        if (!Character.isLetter(op.charAt(0))) {
          at += op.length();
        }
        return op;
      }
    }
    return null;
  }

  private void expect(char c) {
    space();
    if (!peek(c)) {
      throw error("'" + c + "'");
    }
    at++;
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private void space() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private IllegalArgumentException error(String expected) {
    return new IllegalArgumentException("expected " + expected + " at " + at + " in: " + text);
  }
}
