package dev.sluice.examples.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The {@code users} row as Hibernate maps it. Not threadsafe, like any entity. */
@Entity
@Table(name = "users")
public class UserEntity {
  @Id
  private int id;
  private String name;

  /** For Hibernate. */
  protected UserEntity() {}

  /**
   * Returns the primary key.
   *
   * @return the id
   */
  public int getId() {
    return id;
  }

  /**
   * Returns the name.
   *
   * @return the name
   */
  public String getName() {
    return name;
  }
}
