package dev.sluice.spring.boot;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import reactor.core.publisher.Mono;

/**
 * Answers a {@code RateLimitExceededException}, or any exception caused by one, with {@code 503},
 * {@code Retry-After} and an RFC 9457 problem detail, in Spring MVC and in WebFlux. On by default
 * ({@code sluice.web.enabled=false} turns it off), since a 500 is the wrong answer to a call that
 * was refused on purpose and may be retried.
 *
 * <p>It comes last: the application's own {@code @ExceptionHandler}s (in controllers or
 * {@code @ControllerAdvice}) see the exception first, and one that handles it wins.
 */
@AutoConfiguration(after = SluiceAutoConfiguration.class)
@Conditional(OnSluiceProperties.class)
@ConditionalOnProperty(name = "sluice.web.enabled", matchIfMissing = true)
public class SluiceWebAutoConfiguration {

  /** Made by Spring Boot. */
  public SluiceWebAutoConfiguration() {}

  /** Spring MVC: a resolver after the one that runs the application's handlers. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = Type.SERVLET)
  @ConditionalOnClass(HandlerExceptionResolver.class)
  static class Servlet {

    @Bean
    SluiceExceptionResolver sluiceExceptionResolver() {
      return new SluiceExceptionResolver();
    }
  }

  /** WebFlux: a handler before Spring Boot's error handler (order -1). */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = Type.REACTIVE)
  @ConditionalOnClass(WebExceptionHandler.class)
  static class Reactive {

    @Bean
    SluiceWebExceptionHandler sluiceWebExceptionHandler() {
      return new SluiceWebExceptionHandler();
    }
  }

  /** The MVC side; ordered last, after {@code ExceptionHandlerExceptionResolver}. */
  static final class SluiceExceptionResolver implements HandlerExceptionResolver, Ordered {

    @Override
    public ModelAndView resolveException(HttpServletRequest request,
        HttpServletResponse response, Object handler, Exception ex) {
      Rejection rejection = Rejection.in(ex);
      if (rejection == null || response.isCommitted()) {
        return null;
      }
      try {
        response.resetBuffer();
        response.setStatus(Rejection.STATUS);
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(rejection.retryAfterSeconds()));
        response.setContentType(Rejection.CONTENT_TYPE);
        response.getOutputStream().write(rejection.body(request.getRequestURI()));
        response.flushBuffer();
      } catch (IOException e) {
        return null; // the client is gone; let the error handling that follows log it
      }
      return new ModelAndView(); // empty: handled, nothing to render
    }

    @Override
    public int getOrder() {
      return Ordered.LOWEST_PRECEDENCE;
    }
  }

  /** The WebFlux side: after the application's handlers, which run inside the dispatcher. */
  static final class SluiceWebExceptionHandler implements WebExceptionHandler, Ordered {

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
      Rejection rejection = Rejection.in(ex);
      ServerHttpResponse response = exchange.getResponse();
      if (rejection == null || response.isCommitted()) {
        return Mono.error(ex);
      }
      response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
      response.getHeaders().set(HttpHeaders.RETRY_AFTER,
          Long.toString(rejection.retryAfterSeconds()));
      response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
      DataBuffer body = response.bufferFactory()
          .wrap(rejection.body(exchange.getRequest().getPath().value()));
      return response.writeWith(Mono.just(body));
    }

    @Override
    public int getOrder() {
      return -2;
    }
  }
}
