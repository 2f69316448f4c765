package dev.sluice.examples.spring;

import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;

/** The flow with checkouts gated: the transaction manager's checkout is refused. */
@SpringBootTest(properties = {"sluice.budget=0.001", "sluice.burst=1", "sluice.instances=1",
    "sluice.scope=connection", "spring.datasource.url=jdbc:h2:mem:connection-scope"})
@AutoConfigureMockMvc
class ConnectionScopeTest extends OverBudgetFlow {}
