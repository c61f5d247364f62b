package dev.cairn.api.security;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;

/**
 * Who a request comes from: a Cairn user (by id and email) with the roles of the token or JWT it
 * showed. Every write the request makes is made as this user.
 *
 * @param tokenId the Cairn token it came with; null for a JWT
 */
public record CairnPrincipal(long userId, String email, Set<Role> roles, Long tokenId)
        implements OAuth2AuthenticatedPrincipal {

    @Override
    public Map<String, Object> getAttributes() {
        return Map.of("user_id", userId, "email", email);
    }

    @Override
    public Collection<? extends GrantedAuthority> getAuthorities() {
        return roles.stream()
                .map(r -> new SimpleGrantedAuthority(r.authority()))
                .toList();
    }

    @Override
    public String getName() {
        return email;
    }
}
