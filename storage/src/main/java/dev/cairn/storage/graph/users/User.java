package dev.cairn.storage.graph.users;

/** A person who owns nodes, groups and comments; the email is the identity. */
public record User(long id, String email, String firstName, String lastName, String institution) {}
