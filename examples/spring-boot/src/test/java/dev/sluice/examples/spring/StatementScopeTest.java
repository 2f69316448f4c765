package dev.sluice.examples.spring;

import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The flow in the default scope: the {@code @Transactional} read is admitted at its start, so a
 * rejection surfaces as Spring's {@code CannotCreateTransactionException}, whose cause the starter
 * maps to 503.
 */
@SpringBootTest(properties = {"sluice.budget=0.001", "sluice.burst=1", "sluice.instances=1",
    "spring.datasource.url=jdbc:h2:mem:statement-scope"})
@AutoConfigureMockMvc
class StatementScopeTest extends OverBudgetFlow {}
