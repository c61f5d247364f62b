package dev.cairn.api.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.client.OAuth2AuthorizeRequest;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientProviderBuilder;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.DefaultOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.OAuth2Error;

/**
 * Keeps a session signed in through the issuer alive past its access token: the refresh token the issuer
 * gave at sign-in gets a new access token, by Spring Security's authorized client manager, when the one
 * the session holds runs out within a minute; the new one becomes the session's credential. A refresh the
 * issuer refuses (the refresh token revoked or run out) ends the session, saying so.
 */
final class IssuerRenewal {

    private final String issuerName;
    private final OAuth2AuthorizedClientRepository authorized;
    private final DefaultOAuth2AuthorizedClientManager manager;

    IssuerRenewal(
            String issuerName,
            ClientRegistrationRepository registrations,
            OAuth2AuthorizedClientRepository authorized) {
        this.issuerName = issuerName;
        this.authorized = authorized;
        this.manager = new DefaultOAuth2AuthorizedClientManager(registrations, authorized);
        manager.setAuthorizedClientProvider(
                OAuth2AuthorizedClientProviderBuilder.builder().refreshToken().build());
    }

    /** Why a session ended: the issuer would not renew it. */
    static final class Refused extends RuntimeException {
        Refused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The session's credential, renewed if it came from the issuer and runs out soon; {@code credential}
     * itself otherwise (a Cairn token, or an issuer's token with time left).
     *
     * @throws Refused when the issuer refused to renew it
     */
    String current(String credential, HttpServletRequest request, HttpServletResponse response) {
        // the session's own: the repository keeps the authorized client in the session, whoever asks
        Authentication session = UsernamePasswordAuthenticationToken.unauthenticated(
                request.getSession().getId(), null);
        OAuth2AuthorizedClient client = authorized.loadAuthorizedClient(IssuerSignIn.REGISTRATION, session, request);
        if (client == null || !client.getAccessToken().getTokenValue().equals(credential)) {
            return credential;
        }
        try {
            OAuth2AuthorizedClient renewed = manager.authorize(OAuth2AuthorizeRequest.withAuthorizedClient(client)
                    .principal(session)
                    .attribute(HttpServletRequest.class.getName(), request)
                    .attribute(HttpServletResponse.class.getName(), response)
                    .build());
            return renewed == null ? credential : renewed.getAccessToken().getTokenValue();
        } catch (OAuth2AuthorizationException e) {
            OAuth2Error error = e.getError();
            throw new Refused(
                    issuerName + " did not renew your sign-in (" + error.getErrorCode()
                            + (error.getDescription() == null ? "" : ": " + error.getDescription()) + ")",
                    e);
        }
    }
}
