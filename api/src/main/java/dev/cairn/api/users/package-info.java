/**
 * {@code /api/v1/users}: the people nodes, groups and tokens belong to, named by email. Listed
 * (the default user, the owner of what is made without naming a user, is marked), shown, added,
 * and renamed (names and institution; the email is the identity and stays). Everything needs the
 * role admin.
 */
package dev.cairn.api.users;
