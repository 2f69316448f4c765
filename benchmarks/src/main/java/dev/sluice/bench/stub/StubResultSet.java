package dev.sluice.bench.stub;

import java.sql.Statement;

/** One row, every column of which reads as {@code 1}. */
final class StubResultSet extends NeutralResultSet {
  private final Statement statement;
  private boolean beforeFirst = true;
  private boolean closed;

  StubResultSet(Statement statement) {
    this.statement = statement;
  }

  @Override
  public boolean next() {
    boolean hasRow = beforeFirst;
    beforeFirst = false;
    return hasRow;
  }

  @Override
  public int getInt(int columnIndex) {
    return 1;
  }

  @Override
  public long getLong(int columnIndex) {
    return 1;
  }

  @Override
  public Statement getStatement() {
    return statement;
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }
}
