package dev.sluice.spring.boot;

import dev.sluice.Priority;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Takes the {@link Priority} of a request's database calls from a header
 * ({@code sluice.web.priority-header}): {@code critical}, {@code normal} or {@code sheddable}, in
 * any case. A request without the header is left as it is ({@code NORMAL}, or {@code SHEDDABLE}
 * on a read-only connection); another value is answered {@code 400}, as a misspelt value in a
 * gateway's configuration should show at once rather than pass as {@code NORMAL}.
 *
 * <p>The priority holds on the thread that serves the request, which is where Spring MVC makes
 * the JDBC calls; work handed to other threads ({@code @Async}, an executor) does not inherit it.
 * It comes early (order {@value #ORDER}, before Spring Security's filters) so that filters that
 * read the database see it too.
 *
 * <p>This class is threadsafe.
 */
final class PriorityHeaderFilter extends OncePerRequestFilter implements Ordered {
  static final int ORDER = -200;

  private final String header;

  PriorityHeaderFilter(String header) {
    this.header = header;
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
      FilterChain chain) throws ServletException, IOException {
    String value = request.getHeader(header);
    if (value == null || value.isBlank()) {
      chain.doFilter(request, response);
      return;
    }
    Priority priority = parse(value);
    if (priority == null) {
      response.sendError(HttpServletResponse.SC_BAD_REQUEST, header
          + " must be `critical`, `normal` or `sheddable`, but was \"" + value + "\"");
      return;
    }
    try {
      priority.call(() -> {
        chain.doFilter(request, response);
        return null;
      });
    } catch (IOException | ServletException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new ServletException(e); // doFilter throws no other checked exception
    }
  }

  private static Priority parse(String value) {
    switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "critical": return Priority.CRITICAL;
      case "normal": return Priority.NORMAL;
      case "sheddable": return Priority.SHEDDABLE;
      default: return null;
    }
  }

  @Override
  public int getOrder() {
    return ORDER;
  }
}
