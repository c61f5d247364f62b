/**
 * Who may call the API: bearer tokens of Cairn's own (random secrets stored as hashes, each bound
 * to a user with roles read, submit or admin), optionally JWTs of an institution's OpenID Connect
 * issuer, a read-only mode, and CORS.
 */
package dev.cairn.api.security;
