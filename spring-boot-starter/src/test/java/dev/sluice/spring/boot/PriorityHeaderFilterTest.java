package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Priority;
import jakarta.servlet.FilterChain;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** The priority taken from a request header, and when the filter is there. */
class PriorityHeaderFilterTest {
  private final PriorityHeaderFilter filter = new PriorityHeaderFilter("X-Priority");
  private final AtomicReference<Priority> seen = new AtomicReference<>();
  private final FilterChain chain = (request, response) -> seen.set(Priority.current());

  @Test
  void header_priorityInForceDownTheChain_restoredAfter() throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest();
    request.addHeader("x-priority", " Critical ");

    filter.doFilter(request, new MockHttpServletResponse(), chain);

    assertThat(seen).hasValue(Priority.CRITICAL);
    assertThat(Priority.current()).isEqualTo(Priority.NORMAL);
  }

  @Test
  void noHeader_priorityUntouched() throws Exception {
    Priority.SHEDDABLE.call(() -> {
      filter.doFilter(new MockHttpServletRequest(), new MockHttpServletResponse(), chain);
      return null;
    });

    assertThat(seen).hasValue(Priority.SHEDDABLE);
  }

  @Test
  void unknownValue_400NamingHeaderAndValue_chainNotCalled() throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest();
    request.addHeader("X-Priority", "high");
    MockHttpServletResponse response = new MockHttpServletResponse();

    filter.doFilter(request, response, chain);

    assertThat(response.getStatus()).isEqualTo(400);
    assertThat(response.getErrorMessage())
        .isEqualTo("X-Priority must be `critical`, `normal` or `sheddable`, but was \"high\"");
    assertThat(seen).hasValue(null);
  }

  private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(SluiceAutoConfiguration.class,
          SluicePriorityAutoConfiguration.class))
      .withPropertyValues("sluice.budget=500");

  @Test
  void offByDefault() {
    servlet.run(context -> assertThat(context).hasNotFailed()
        .doesNotHaveBean(PriorityHeaderFilter.class));
  }

  @Test
  void headerSet_filterRegistered() {
    servlet.withPropertyValues("sluice.web.priority-header=X-Priority")
        .run(context -> assertThat(context).hasSingleBean(PriorityHeaderFilter.class));
  }

  @Test
  void badHeaderName_startStopsNamingKeyAndValue() {
    servlet.withPropertyValues("sluice.web.priority-header=X Priority")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessage(
            "sluice.web.priority-header must be an HTTP header name, but was \"X Priority\""));
  }
}
