package dev.cairn.api.security;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.server.authorization.InMemoryOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.client.InMemoryRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;

import dev.cairn.api.testing.Api;

/**
 * A real OpenID Connect issuer for the JWT tests: Spring Authorization Server on a port of its own,
 * started before the server under test and stopped after. Its clients get access tokens by the
 * client-credentials flow, each with the claims of a person of an institution's directory
 * ({@link #PEOPLE}): an email and roles, some of them Cairn's. A JWT is fetched from it as any client
 * would, over HTTP. The same people sign in to the web view at its login form ({@link #WEB_CLIENT}).
 */
final class OidcIssuer implements BeforeAllCallback, AfterAllCallback {

    /**
     * The claims each client's tokens carry. {@code roles} is a list, or a space-separated string as
     * some issuers write it; {@code expired} tokens were issued two hours ago and ran out an hour ago.
     */
    record Person(String email, Object roles, boolean expired) {}

    static final Map<String, Person> PEOPLE = Map.of(
            "submitter", new Person("alice@lab.example.org", List.of("submit", "lab-member"), false),
            "reader", new Person("bob@lab.example.org", "lab-member read", false),
            "outsider", new Person("carol@lab.example.org", List.of("lab-member", "viewer"), false),
            "late", new Person("dave@lab.example.org", List.of("admin"), true),
            "nameless", new Person(null, List.of("read"), false));

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ConfigurableApplicationContext issuer;
    private String uri;

    @Override
    public void beforeAll(ExtensionContext context) {
        issuer = new SpringApplicationBuilder(IssuerApplication.class)
                .properties(
                        // not the server's application.yml: this is another application
                        "spring.config.name=cairn-test-issuer",
                        "server.port=0",
                        "spring.main.banner-mode=off",
                        "management.endpoints.web.exposure.include=",
                        "springdoc.api-docs.enabled=false",
                        "springdoc.swagger-ui.enabled=false")
                .run();
        int port = ((WebServerApplicationContext) issuer).getWebServer().getPort();
        uri = "http://localhost:" + port;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (issuer != null) {
            issuer.close();
        }
    }

    /** The issuer's URI, as the server under test is configured with it. */
    String uri() {
        if (uri == null) {
            throw new IllegalStateException("the issuer is not started: register OidcIssuer with @RegisterExtension");
        }
        return uri;
    }

    /** An access token of {@code client}, by the client-credentials flow. */
    String token(String client) {
        String basic =
                Base64.getEncoder().encodeToString((client + ":" + secret(client)).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(uri() + "/oauth2/token"))
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "grant_type=client_credentials&scope=" + URLEncoder.encode("cairn", StandardCharsets.UTF_8)))
                .build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("the issuer refused a token to " + client + ": " + response.statusCode()
                        + " " + response.body());
            }
            return Api.json().readTree(response.body()).get("access_token").asString();
        } catch (IOException e) {
            throw new IllegalStateException("the issuer did not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String secret(String client) {
        return client + "-secret";
    }

    /**
     * The web view's client: confidential (a public client gets no refresh token), its code bound by PKCE,
     * which the issuer requires; its access tokens last {@link #WEB_ACCESS_TOKEN_LIFETIME}, and a refresh
     * token renews them.
     */
    static final String WEB_CLIENT = "cairn-web";

    static final String WEB_CLIENT_SECRET = secret(WEB_CLIENT);

    static final Duration WEB_ACCESS_TOKEN_LIFETIME = Duration.ofSeconds(5);

    /** The access tokens issued by the refresh token grant, to any client. */
    private static final AtomicInteger REFRESHED = new AtomicInteger();

    /** How many access tokens a refresh token has renewed. */
    int refreshes() {
        return REFRESHED.get();
    }

    /** Revokes every sign-in of {@code person} at the issuer: their refresh tokens renew nothing more. */
    void revokeSignIns(String person) {
        issuer.getBean(Authorizations.class).revoke(person);
    }

    /** The issuer's authorizations, in memory, with the ids of each person's, so that a test can revoke them. */
    static final class Authorizations implements OAuth2AuthorizationService {

        private final InMemoryOAuth2AuthorizationService store = new InMemoryOAuth2AuthorizationService();
        private final Map<String, Set<String>> byPerson = new ConcurrentHashMap<>();

        @Override
        public void save(OAuth2Authorization authorization) {
            store.save(authorization);
            byPerson.computeIfAbsent(authorization.getPrincipalName(), p -> ConcurrentHashMap.newKeySet())
                    .add(authorization.getId());
        }

        @Override
        public void remove(OAuth2Authorization authorization) {
            store.remove(authorization);
        }

        @Override
        public OAuth2Authorization findById(String id) {
            return store.findById(id);
        }

        @Override
        public OAuth2Authorization findByToken(String token, OAuth2TokenType tokenType) {
            return store.findByToken(token, tokenType);
        }

        void revoke(String person) {
            for (String id : byPerson.getOrDefault(person, Set.of())) {
                OAuth2Authorization authorization = store.findById(id);
                if (authorization != null) {
                    store.remove(authorization);
                }
            }
        }
    }

    /** The password of a person ({@link #PEOPLE}) at the issuer's login form. */
    static String password(String person) {
        return person + "-password";
    }

    /**
     * The issuer: client credentials for the API's clients; the authorization code flow with PKCE for the
     * web view, whose people sign in at the issuer's login form; OIDC discovery on, the people's claims in
     * every token.
     */
    @TestConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class IssuerApplication {

        @Bean
        @Order(1)
        SecurityFilterChain issuer(HttpSecurity http) throws Exception {
            http.oauth2AuthorizationServer(server -> {
                        http.securityMatcher(server.getEndpointsMatcher());
                        server.oidc(Customizer.withDefaults());
                    })
                    .authorizeHttpRequests(a -> a.anyRequest().authenticated())
                    .exceptionHandling(e -> e.defaultAuthenticationEntryPointFor(
                            new LoginUrlAuthenticationEntryPoint("/login"),
                            new MediaTypeRequestMatcher(MediaType.TEXT_HTML)));
            return http.build();
        }

        @Bean
        @Order(2)
        SecurityFilterChain loginForm(HttpSecurity http) throws Exception {
            http.authorizeHttpRequests(a -> a.anyRequest().authenticated()).formLogin(Customizer.withDefaults());
            return http.build();
        }

        @Bean
        UserDetailsService people() {
            return new InMemoryUserDetailsManager(PEOPLE.keySet().stream()
                    .map(name -> User.withUsername(name)
                            .password("{noop}" + password(name))
                            .roles("PERSON")
                            .build())
                    .toList());
        }

        @Bean
        RegisteredClientRepository clients() {
            List<RegisteredClient> clients = new ArrayList<>(PEOPLE.keySet().stream()
                    .map(name -> RegisteredClient.withId(UUID.randomUUID().toString())
                            .clientId(name)
                            .clientSecret("{noop}" + secret(name))
                            .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                            .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
                            .scope("cairn")
                            .build())
                    .toList());
            // a loopback redirect: the issuer takes it on whatever port the server under test has
            clients.add(RegisteredClient.withId(UUID.randomUUID().toString())
                    .clientId(WEB_CLIENT)
                    .clientSecret("{noop}" + WEB_CLIENT_SECRET)
                    .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                    .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                    .authorizationGrantType(AuthorizationGrantType.REFRESH_TOKEN)
                    .tokenSettings(TokenSettings.builder()
                            .accessTokenTimeToLive(WEB_ACCESS_TOKEN_LIFETIME)
                            .build())
                    .redirectUri("http://127.0.0.1/ui/oauth2/code/issuer")
                    .scope(OidcScopes.OPENID)
                    .clientSettings(ClientSettings.builder()
                            .requireProofKey(true)
                            .requireAuthorizationConsent(false)
                            .build())
                    .build());
            return new InMemoryRegisteredClientRepository(clients);
        }

        @Bean
        Authorizations authorizations() {
            return new Authorizations();
        }

        @Bean
        JWKSource<SecurityContext> keys() throws NoSuchAlgorithmException {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            RSAKey key = new RSAKey.Builder((RSAPublicKey) pair.getPublic())
                    .privateKey((RSAPrivateKey) pair.getPrivate())
                    .keyID("issuer-key")
                    .build();
            return new ImmutableJWKSet<>(new JWKSet(key));
        }

        @Bean
        OAuth2TokenCustomizer<JwtEncodingContext> claims() {
            return context -> {
                if (AuthorizationGrantType.REFRESH_TOKEN.equals(context.getAuthorizationGrantType())
                        && OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())) {
                    REFRESHED.incrementAndGet();
                }
                // the person is the client for client credentials, who signed in at the form for a code
                Person person = PEOPLE.get(
                        AuthorizationGrantType.CLIENT_CREDENTIALS.equals(context.getAuthorizationGrantType())
                                ? context.getRegisteredClient().getClientId()
                                : context.getPrincipal().getName());
                if (person.email() != null) {
                    context.getClaims().claim("email", person.email());
                }
                context.getClaims().claim("roles", person.roles());
                if (person.expired()) {
                    Instant now = Instant.now();
                    context.getClaims()
                            .issuedAt(now.minus(Duration.ofHours(2)))
                            .notBefore(now.minus(Duration.ofHours(2)))
                            .expiresAt(now.minus(Duration.ofHours(1)));
                }
            };
        }
    }
}
