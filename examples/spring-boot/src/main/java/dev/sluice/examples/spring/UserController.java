package dev.sluice.examples.spring;

import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Reads users with {@code JdbcTemplate}: nothing here knows about Sluice. */
@RestController
public class UserController {
  private final JdbcTemplate jdbc;

  UserController(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Reads a user, in a transaction (in {@code STATEMENT} scope Sluice admits it at its start).
   *
   * @param id the primary key
   * @return the user, or 404
   */
  @GetMapping("/users/{id}")
  @Transactional(readOnly = true)
  public ResponseEntity<Map<String, Object>> user(@PathVariable int id) {
    List<Map<String, Object>> rows =
        jdbc.queryForList("SELECT id, name FROM users WHERE id = ?", id);
    return rows.isEmpty() ? ResponseEntity.notFound().build() : ResponseEntity.ok(rows.get(0));
  }
}
