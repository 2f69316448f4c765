package dev.sluice.it.answers;

/**
 * {@link MariaDbAttackTest}'s attacks and controls through MySQL Connector/J, whose dialect reads
 * the transaction from other flags of the driver's and decodes every value otherwise: a refused
 * caller must be refused, or answered exactly what its own connection reads live.
 *
 * <p>Runs only when {@code IT_SLUICE_MYSQL_URL} names a MariaDB through MySQL Connector/J, for
 * example {@code jdbc:mysql://127.0.0.1:3306/test?user=root} (the attacks' schema is MariaDB's:
 * sequences, {@code CREATE OR REPLACE}); skipped otherwise.
 */
class MySqlAttackTest extends MariaDbAttackTest {
  static final String MYSQL_ENV = "IT_SLUICE_MYSQL_URL";

  @Override
  String variable() {
    return MYSQL_ENV;
  }
}
