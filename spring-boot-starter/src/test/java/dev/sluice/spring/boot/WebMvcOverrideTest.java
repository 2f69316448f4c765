package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import dev.sluice.RateLimitExceededException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** The application's own handler for the rejection wins over the starter's 503. */
@SpringBootTest(classes = WebMvcOverrideTest.App.class, properties = {"sluice.budget=0.001",
    "sluice.burst=1", "spring.datasource.url=jdbc:h2:mem:mvc-override"})
@AutoConfigureMockMvc
class WebMvcOverrideTest {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import({WebMvcTest.Users.class, OwnAdvice.class})
  static class App {}

  @RestControllerAdvice
  static class OwnAdvice {
    @ExceptionHandler(RateLimitExceededException.class)
    ResponseEntity<String> tooMany(RateLimitExceededException e) {
      return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).body("ours");
    }
  }

  @Autowired
  MockMvc mvc;

  @Test
  void ownExceptionHandler_winsOverTheStarters() throws Exception {
    mvc.perform(get("/users/count")); // the one permit of the burst

    MockHttpServletResponse refused = mvc.perform(get("/users/count")).andReturn().getResponse();

    assertThat(refused.getStatus()).isEqualTo(429);
    assertThat(refused.getContentAsString()).isEqualTo("ours");
  }
}
