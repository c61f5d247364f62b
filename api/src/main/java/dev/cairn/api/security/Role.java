package dev.cairn.api.security;

import java.util.Arrays;
import java.util.Locale;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * What a token may do. Each role includes the ones before it: {@code submit} can read,
 * {@code admin} can submit. Read: everything that reads. Submit: launching, uploading data,
 * pausing, playing and killing processes, changing labels, extras, groups and comments.
 * Admin: computers, codes, users, tokens, storage maintenance and archive imports.
 */
public enum Role {
    READ,
    SUBMIT,
    ADMIN;

    /** The name in tokens, JWT claims and the API ({@code read}, {@code submit}, {@code admin}). */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The Spring Security authority of the role. */
    public String authority() {
        return "ROLE_" + name();
    }

    public static Role of(String value) {
        for (Role r : values()) {
            if (r.value().equals(value)) {
                return r;
            }
        }
        throw new InvalidInputException("unknown role '" + value + "'; the roles are "
                + Arrays.stream(values()).map(Role::value).toList());
    }
}
