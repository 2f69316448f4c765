package dev.sluice.internal.answer;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * What the database's catalog says of its relations and functions, for the write fences: which
 * names a read may reach other tables through (views, materialized and foreign tables, tables
 * with row-level security, whose policies may read others), which tables a write reaches others
 * from (triggers, rules, cascading foreign keys, partitions and inheritance), the functions of
 * the application's own (outside {@code pg_catalog}), which may read anything, and of those the
 * ones declared {@code VOLATILE}, which may also write anything. A function declared
 * {@code STABLE} or {@code IMMUTABLE} is taken at its word, as PostgreSQL's planner takes it
 * ("cannot modify the database"): calling one is no write.
 * {@link #UNKNOWN} (no catalog read, or a database Sluice reads none of) knows none: every read
 * may read every table, every write reaches every table.
 *
 * <p>Immutable, threadsafe.
 */
final class TableReach {
  static final TableReach UNKNOWN =
      new TableReach(Set.of(), Set.of(), Set.of(), Set.of(), false);

  final Set<String> readsOthers;
  final Set<String> writesReach;
  final Set<String> functions;
  /** Of {@link #functions}, those that may write: declared {@code VOLATILE}. */
  final Set<String> writingFunctions;
  final boolean known;

  private TableReach(Set<String> readsOthers, Set<String> writesReach, Set<String> functions,
      Set<String> writingFunctions, boolean known) {
    this.readsOthers = readsOthers;
    this.writesReach = writesReach;
    this.functions = functions;
    this.writingFunctions = writingFunctions;
    this.known = known;
  }

  /**
   * A catalog read from the database: comma-separated lower-case names, {@code null}: none;
   * every function of the application's own may write.
   */
  static TableReach of(String readsOthers, String writesReach, String functions) {
    return of(readsOthers, writesReach, functions, functions);
  }

  /** As {@link #of(String, String, String)}, only the {@code writing} functions may write. */
  static TableReach of(String readsOthers, String writesReach, String functions,
      String writing) {
    return new TableReach(names(readsOthers), names(writesReach), names(functions),
        names(writing), true);
  }

  /** Both catalogs together (one budget over two databases): a name in either counts. */
  TableReach with(TableReach other) {
    if (!known) {
      return other;
    }
    if (!other.known || other.equals(this)) {
      return this;
    }
    return new TableReach(union(readsOthers, other.readsOthers),
        union(writesReach, other.writesReach), union(functions, other.functions),
        union(writingFunctions, other.writingFunctions), true);
  }

  private static Set<String> names(String list) {
    return list == null || list.isEmpty() ? Set.of() : Set.of(
        new HashSet<>(Arrays.asList(list.split(","))).toArray(new String[0]));
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableReach c && known == c.known && readsOthers.equals(c.readsOthers)
        && writesReach.equals(c.writesReach) && functions.equals(c.functions)
        && writingFunctions.equals(c.writingFunctions);
  }

  @Override
  public int hashCode() {
    return readsOthers.hashCode() * 31 + writesReach.hashCode();
  }
}
