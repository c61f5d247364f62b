/**
 * {@code /api/v1/tokens}: the bearer tokens of the API ({@code security.TokenService}). A token is
 * made for a user with roles and an optional expiry, and its secret is answered once, then never
 * again (only its hash is stored); tokens are listed and shown without secrets, and revoked.
 * Everything needs the role admin.
 */
package dev.cairn.api.tokens;
