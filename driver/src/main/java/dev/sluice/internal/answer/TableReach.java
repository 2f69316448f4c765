package dev.sluice.internal.answer;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * What the database's catalog says of its relations and functions, for the write fences: which
 * names a read may reach other tables through (views, materialized and foreign tables, tables
 * with row-level security, whose policies may read others), which tables a write reaches others
 * from (triggers, rules, cascading foreign keys, partitions and inheritance), and the functions
 * of the application's own (outside {@code pg_catalog}), which may read or write anything.
 * {@link #UNKNOWN} (no catalog read, or a database Sluice reads none of) knows none: every read
 * may read every table, every write reaches every table.
 *
 * <p>Immutable, threadsafe.
 */
final class TableReach {
  static final TableReach UNKNOWN = new TableReach(Set.of(), Set.of(), Set.of(), false);

  final Set<String> readsOthers;
  final Set<String> writesReach;
  final Set<String> functions;
  final boolean known;

  private TableReach(Set<String> readsOthers, Set<String> writesReach, Set<String> functions,
      boolean known) {
    this.readsOthers = readsOthers;
    this.writesReach = writesReach;
    this.functions = functions;
    this.known = known;
  }

  /** A catalog read from the database: comma-separated lower-case names, {@code null}: none. */
  static TableReach of(String readsOthers, String writesReach, String functions) {
    return new TableReach(names(readsOthers), names(writesReach), names(functions), true);
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
        union(writesReach, other.writesReach), union(functions, other.functions), true);
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
        && writesReach.equals(c.writesReach) && functions.equals(c.functions);
  }

  @Override
  public int hashCode() {
    return readsOthers.hashCode() * 31 + writesReach.hashCode();
  }
}
