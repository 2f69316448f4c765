package dev.sluice.examples.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Scope;
import dev.sluice.examples.cacheaside.CachedUsersContract;
import dev.sluice.examples.cacheaside.UserDao;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class JooqExampleTest extends CachedUsersContract {

  @Override
  protected UserDao reader(DataSource dataSource) {
    return new JooqUsers(dataSource);
  }

  @ParameterizedTest
  @EnumSource(Scope.class)
  void run_eachScope_walksTheFourBranches(Scope scope) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    JooqExample.run(scope, new PrintStream(out, true, "UTF-8"));

    assertThat(out.toString(StandardCharsets.UTF_8)).contains("(from the cache)",
        "(from the local copy)", "(from the database, 1 permit)", "user 3 -> 503, Retry-After",
        "admitted=1, rejected=1");
  }
}
