package dev.sluice.it;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A plain entity for the Hibernate tests. */
@Entity
@Table(name = "it_account")
public class Account {
  @Id
  private Long id;
  private String owner;
  private long balance;

  protected Account() {}

  Account(long id, String owner, long balance) {
    this.id = id;
    this.owner = owner;
    this.balance = balance;
  }

  public Long getId() {
    return id;
  }

  public String getOwner() {
    return owner;
  }

  public long getBalance() {
    return balance;
  }

  public void setBalance(long balance) {
    this.balance = balance;
  }
}
