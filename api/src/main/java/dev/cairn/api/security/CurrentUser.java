package dev.cairn.api.security;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

import dev.cairn.storage.errors.InvalidInputException;

/** The user a request acts as, from its token: every write of the request is made as this user. */
public final class CurrentUser {

    private CurrentUser() {}

    public static CairnPrincipal principal() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof CairnPrincipal principal) {
            return principal;
        }
        throw new InvalidInputException("this request carries no Cairn user (no bearer token)");
    }

    public static long id() {
        return principal().userId();
    }
}
