package dev.sluice.spring.boot;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.lang.Nullable;

/**
 * The {@code sluice} endpoint over HTTP: the same write operation, but a refused change is
 * answered 400 with the reason in the body, whatever {@code server.error.include-message} says.
 * Spring Boot's defaults would answer {@code {"status":400,"error":"Bad Request"}} and no more,
 * which leaves an operator in an incident guessing.
 *
 * <p>This class is threadsafe.
 */
@EndpointWebExtension(endpoint = SluiceEndpoint.class)
public final class SluiceEndpointWebExtension {
  private final SluiceEndpoint endpoint;

  SluiceEndpointWebExtension(SluiceEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /**
   * Changes one budget, as {@link SluiceEndpoint#change}.
   *
   * @param name the budget's {@code sluice.name}
   * @param flag {@code open} or {@code closed}, or absent
   * @param budget the new budget in permits per second, or absent
   * @param mode {@code shadow} or {@code enforce}, or absent
   * @param recovery {@code end}, or absent
   * @return the figures after the change (200); 404 for no such budget; 400 with
   *     {@code {"status":400,"error":"Bad Request","message":...}} for a bad field, and then
   *     nothing changed
   */
  @WriteOperation
  public WebEndpointResponse<Map<String, Object>> change(@Selector String name,
      @Nullable String flag, @Nullable String budget, @Nullable String mode,
      @Nullable String recovery) {
    try {
      Map<String, Object> figures = endpoint.change(name, flag, budget(budget), mode, recovery);
      return figures == null ? new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND)
          : new WebEndpointResponse<>(figures);
    } catch (InvalidEndpointRequestException e) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("status", WebEndpointResponse.STATUS_BAD_REQUEST);
      body.put("error", "Bad Request");
      body.put("message", e.getReason());
      return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_BAD_REQUEST);
    }
  }

  /** The budget as a number, refused in the endpoint's own words when it is none. */
  private static Double budget(@Nullable String text) {
    if (text == null) {
      return null;
    }
    try {
      return Double.valueOf(text.trim());
    } catch (NumberFormatException e) {
      String reason = "budget must be a positive number, but was \"" + text + "\"";
      throw new InvalidEndpointRequestException(reason, reason);
    }
  }
}
