package dev.cairn.api.security;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtDecoders;
import org.springframework.security.oauth2.jwt.SupplierJwtDecoder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.session.DisableEncodeUrlFilter;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.web.Problems;
import dev.cairn.storage.Storage;

/**
 * Who may call what. Everything under {@code /api/v1} needs a bearer token: reading needs the
 * role read, changing data and processes submit, computers, codes, users, tokens, storage and
 * archive imports admin (each role includes the ones below it). Health, the OpenAPI document and Swagger UI are open. A
 * refusal is a problem detail (401 with {@code WWW-Authenticate: Bearer}, or 403).
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    @Bean
    TokenService tokenService(Storage storage) {
        return new TokenService(storage);
    }

    /**
     * No observations of the security filters: with them every request timed each filter and counted
     * each filter's entry and exit as a meter event, a tenth of the JVM's work on a one-node read
     * (JFR), for metrics no one reads; {@code http.server.requests} times the request as a whole.
     */
    @Bean
    SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    RoleHierarchy roleHierarchy() {
        return RoleHierarchyImpl.fromHierarchy(Role.ADMIN.authority() + " > " + Role.SUBMIT.authority() + "\n"
                + Role.SUBMIT.authority() + " > " + Role.READ.authority());
    }

    /** Cairn's tokens and the OIDC issuer's JWTs, for the API's bearer tokens and the pages' sessions alike. */
    @Bean
    BearerAuthentication bearerAuthentication(TokenService tokens, CairnProperties properties, Storage storage) {
        CairnProperties.Oidc oidc = properties.security().oidc();
        // the issuer is asked for its keys at the first JWT, so the server starts while it is away
        JwtDecoder jwts =
                oidc.enabled() ? new SupplierJwtDecoder(() -> JwtDecoders.fromIssuerLocation(oidc.issuerUri())) : null;
        return new BearerAuthentication(new TokenIntrospector(tokens), jwts, oidc, new UserAccounts(storage.users()));
    }

    @Bean
    SecurityFilterChain api(HttpSecurity http, BearerAuthentication bearer, CairnProperties properties, JsonMapper json)
            throws Exception {
        ProviderManager manager = new ProviderManager(bearer);
        String read = Role.READ.name();
        String submit = Role.SUBMIT.name();
        String admin = Role.ADMIN.name();
        http.csrf(csrf -> csrf.disable()) // bearer tokens, no cookies: nothing for a forged request to ride on
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .cors(cors ->
                        cors.configurationSource(cors(properties.security().corsOrigins())))
                .authorizeHttpRequests(a -> a.requestMatchers(
                                "/actuator/health/**",
                                "/v3/api-docs/**",
                                "/swagger-ui/**",
                                "/swagger-ui.html",
                                "/api/v1/server")
                        .permitAll()
                        .requestMatchers(HttpMethod.OPTIONS, "/**")
                        .permitAll()
                        .requestMatchers("/actuator/**")
                        .hasRole(read)
                        .requestMatchers("/api/v1/tokens/**", "/api/v1/users/**")
                        .hasRole(admin)
                        .requestMatchers(HttpMethod.POST, "/api/v1/storage/**")
                        .hasRole(admin)
                        .requestMatchers("/api/v1/storage/attribute-indexes/**")
                        .hasRole(admin)
                        // verifying an uploaded archive reads; importing one writes as much as an installation holds
                        .requestMatchers(HttpMethod.POST, "/api/v1/archive/inspection")
                        .hasRole(read)
                        .requestMatchers(HttpMethod.POST, "/api/v1/archive")
                        .hasRole(admin)
                        .requestMatchers(HttpMethod.GET, "/api/v1/**")
                        .hasRole(read)
                        .requestMatchers(HttpMethod.HEAD, "/api/v1/**")
                        .hasRole(read)
                        // reading with a body: a query, a cache explanation
                        .requestMatchers(HttpMethod.POST, "/api/v1/query/**", "/api/v1/processes/explain-cache")
                        .hasRole(read)
                        .requestMatchers("/api/v1/computers/**", "/api/v1/codes/**")
                        .hasRole(admin)
                        .requestMatchers("/api/v1/**")
                        .hasRole(submit)
                        .anyRequest()
                        .permitAll())
                .oauth2ResourceServer(o -> o.authenticationManagerResolver(request -> manager)
                        .authenticationEntryPoint(unauthenticated(json))
                        .accessDeniedHandler(forbidden(json)))
                .exceptionHandling(
                        e -> e.authenticationEntryPoint(unauthenticated(json)).accessDeniedHandler(forbidden(json)));
        http.addFilterBefore(new OutageFilter(json), DisableEncodeUrlFilter.class);
        http.addFilterBefore(new MethodOverrideFilter(), DisableEncodeUrlFilter.class);
        if (properties.security().readOnly()) {
            http.addFilterBefore(new ReadOnlyFilter(json), AuthorizationFilter.class);
        }
        return http.build();
    }

    private static UrlBasedCorsConfigurationSource cors(List<String> origins) {
        CorsConfiguration config = new CorsConfiguration();
        config.setAllowedOrigins(origins);
        config.setAllowedMethods(List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"));
        config.setAllowedHeaders(List.of(
                HttpHeaders.AUTHORIZATION, HttpHeaders.CONTENT_TYPE, "Last-Event-ID", MethodOverrideFilter.HEADER));
        config.setExposedHeaders(List.of(HttpHeaders.LINK, HttpHeaders.ETAG, HttpHeaders.LOCATION, "X-Total-Count"));
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        source.registerCorsConfiguration("/**", config);
        return source;
    }

    private static AuthenticationEntryPoint unauthenticated(JsonMapper json) {
        return (request, response, e) -> {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
            write(
                    json,
                    response,
                    Problems.UNAUTHENTICATED.with(
                            request.getHeader(HttpHeaders.AUTHORIZATION) == null
                                    ? "this needs a bearer token (Authorization: Bearer cairn_…)"
                                    : "the bearer token was refused: " + e.getMessage()));
        };
    }

    private static AccessDeniedHandler forbidden(JsonMapper json) {
        return (request, response, e) -> {
            Authentication who = SecurityContextHolder.getContext().getAuthentication();
            String roles = who == null
                    ? "none"
                    : who.getAuthorities().stream()
                            .map(a ->
                                    a.getAuthority().replaceFirst("^ROLE_", "").toLowerCase(Locale.ROOT))
                            .toList()
                            .toString();
            write(
                    json,
                    response,
                    Problems.FORBIDDEN.with("the roles of this token, " + roles + ", do not allow "
                            + request.getMethod() + " " + request.getRequestURI()
                            + " (reading needs read; launching and changing data submit; computers, codes, users, tokens,"
                            + " storage and imports admin)"));
        };
    }

    static void write(JsonMapper json, HttpServletResponse response, ProblemDetail problem) throws IOException {
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), problem);
    }
}
