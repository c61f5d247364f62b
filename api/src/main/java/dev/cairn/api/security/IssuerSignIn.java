package dev.cairn.api.security;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;
import org.springframework.security.oauth2.client.web.DefaultOAuth2AuthorizationRequestResolver;
import org.springframework.security.oauth2.client.web.HttpSessionOAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestCustomizers;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestRedirectFilter;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;

import dev.cairn.api.config.CairnProperties;

/**
 * Signing in to the web view through the institution's OpenID Connect issuer: the authorization code
 * flow with PKCE, by Spring Security's OAuth 2 client. The access token the issuer gives becomes the
 * session's credential, as a token typed into the sign-in form does ({@link PageSessions}): each page
 * request is authenticated with it by the JWT path of the API, so the issuer's user gets Cairn's roles
 * exactly as a JWT bearer would. The authorized client, with the refresh token the issuer may have given,
 * stays in the session: {@link IssuerRenewal} renews the access token as it runs out.
 */
final class IssuerSignIn {

    /** The issuer's registration id, in the sign-in link: {@code /ui/oauth2/authorization/issuer}. */
    static final String REGISTRATION = "issuer";

    static final String AUTHORIZATION = "/ui/oauth2/authorization";
    static final String CALLBACK = "/ui/oauth2/code/";

    private final CairnProperties.Oidc oidc;
    private final PageSessions sessions;
    private final OAuth2AuthorizedClientRepository authorized = new HttpSessionOAuth2AuthorizedClientRepository();
    private volatile ClientRegistration registration;

    IssuerSignIn(CairnProperties.Oidc oidc, PageSessions sessions) {
        this.oidc = oidc;
        this.sessions = sessions;
    }

    /** What renews the access tokens of the sessions this sign-in makes. */
    IssuerRenewal renewal() {
        return new IssuerRenewal(oidc.name(), this::registration, authorized);
    }

    void configure(HttpSecurity http) throws Exception {
        ClientRegistrationRepository registrations = this::registration;
        DefaultOAuth2AuthorizationRequestResolver requests =
                new DefaultOAuth2AuthorizationRequestResolver(registrations, AUTHORIZATION);
        requests.setAuthorizationRequestCustomizer(OAuth2AuthorizationRequestCustomizers.withPkce());
        http.oauth2Login(o -> o.clientRegistrationRepository(registrations)
                .authorizedClientRepository(authorized)
                .authorizationEndpoint(a -> a.baseUri(AUTHORIZATION).authorizationRequestResolver(requests))
                .redirectionEndpoint(r -> r.baseUri(CALLBACK + "*"))
                .loginPage(PageSecurityConfiguration.SIGN_IN)
                .successHandler(this::signedIn)
                .failureHandler((request, response, failure) -> refused(
                        "Sign-in through " + oidc.name() + " failed: " + failure.getMessage() + ".", request, response))
                .withObjectPostProcessor(new ObjectPostProcessor<OAuth2AuthorizationRequestRedirectFilter>() {
                    @Override
                    public <F extends OAuth2AuthorizationRequestRedirectFilter> F postProcess(F filter) {
                        filter.setAuthenticationFailureHandler(IssuerSignIn.this::notStarted);
                        return filter;
                    }
                }));
    }

    /** The way to the issuer could not be made (its discovery document did not come): said on the sign-in page. */
    private void notStarted(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        Throwable why = failure.getCause() == null ? failure : failure.getCause();
        refused(
                "Sign-in through " + oidc.name() + " is not available now: " + why.getMessage()
                        + ". Try again later, or sign in with a token.",
                request,
                response);
    }

    /**
     * The issuer's registration, read from its discovery document at the first sign-in rather than at
     * start, so that the server starts while the issuer is away.
     */
    private ClientRegistration registration(String id) {
        if (!REGISTRATION.equals(id)) {
            return null;
        }
        ClientRegistration known = registration;
        if (known == null) {
            known = discovered();
            registration = known;
        }
        return known;
    }

    private ClientRegistration discovered() {
        try {
            boolean secret = oidc.clientSecret() != null && !oidc.clientSecret().isBlank();
            return ClientRegistrations.fromIssuerLocation(oidc.issuerUri())
                    .registrationId(REGISTRATION)
                    .clientName(oidc.name())
                    .clientId(oidc.clientId())
                    .clientSecret(secret ? oidc.clientSecret() : null)
                    .clientAuthenticationMethod(
                            secret ? ClientAuthenticationMethod.CLIENT_SECRET_BASIC : ClientAuthenticationMethod.NONE)
                    .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                    .redirectUri("{baseUrl}" + CALLBACK + "{registrationId}")
                    .scope("openid")
                    .build();
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "its issuer " + oidc.issuerUri() + " did not give its OpenID configuration (" + e.getMessage()
                            + ")",
                    e);
        }
    }

    private void signedIn(HttpServletRequest request, HttpServletResponse response, Authentication who)
            throws IOException {
        OAuth2AuthorizedClient client = authorized.loadAuthorizedClient(
                ((OAuth2AuthenticationToken) who).getAuthorizedClientRegistrationId(), who, request);
        try {
            sessions.signIn(client.getAccessToken().getTokenValue(), request);
            // into the session the sign-in made anew: the refresh token goes with it
            authorized.saveAuthorizedClient(client, who, request, response);
        } catch (AuthenticationException e) {
            refused(oidc.name() + " signed you in, but Cairn refused it: " + e.getMessage() + ".", request, response);
            return;
        }
        response.sendRedirect(request.getContextPath() + "/ui");
    }

    private static void refused(String why, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        request.getSession(true).setAttribute(PageSessions.ENDED, why);
        response.sendRedirect(request.getContextPath() + PageSecurityConfiguration.SIGN_IN);
    }
}
