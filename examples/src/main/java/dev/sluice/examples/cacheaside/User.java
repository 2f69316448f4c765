package dev.sluice.examples.cacheaside;

/**
 * A user, as the examples read it.
 *
 * @param id the primary key
 * @param name the name
 */
public record User(int id, String name) {}
