package dev.cairn.api.security;

import java.time.OffsetDateTime;
import java.util.Set;
import java.util.UUID;

/**
 * A bearer token as stored: never its secret, which is shown once when the token is made.
 *
 * @param expires  when it stops working, or null for never
 * @param lastUsed when a request last came with it (updated at most once a minute)
 * @param revoked  when it was revoked, or null
 */
public record Token(
        long id,
        UUID uuid,
        long userId,
        String userEmail,
        String name,
        Set<Role> roles,
        OffsetDateTime created,
        OffsetDateTime expires,
        OffsetDateTime lastUsed,
        OffsetDateTime revoked) {

    public boolean isValidAt(OffsetDateTime now) {
        return revoked == null && (expires == null || expires.isAfter(now));
    }
}
