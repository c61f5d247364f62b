package dev.cairn.api.security;

import org.apache.catalina.Host;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.web.Problems;

/**
 * What requests reach the API at all, and how the ones refused before it are answered:
 * <ul>
 *   <li>any method passes, so that one no operation has (QUERY, TRACE) gets Spring's 405 with
 *       {@code Allow}, not a refusal without a word; the authorization rules still apply to it;
 *   <li>an encoded slash or percent sign passes, so that a path parameter may hold one (a file's
 *       path {@code out%2Faiida.out}, an email with {@code %}); Tomcat passes an encoded slash on
 *       undecoded, and Spring decodes each segment after matching;
 *   <li>what the firewall still refuses (a path with {@code ..} or a control character) is a 400
 *       problem naming why, not Spring Boot's error page;
 *   <li>what Tomcat refuses before any filter (a request line and headers past 8 KiB) is a problem
 *       too, not Tomcat's HTML page ({@link ConnectorRefusals}).
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class RequestFirewall {

    @Bean
    HttpFirewall httpFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        firewall.setAllowUrlEncodedSlash(true);
        firewall.setAllowUrlEncodedPercent(true);
        return firewall;
    }

    @Bean
    RequestRejectedHandler requestRejectedHandler(JsonMapper json) {
        return (request, response, e) -> SecurityConfiguration.write(
                json, response, Problems.INVALID_INPUT.with("the request was refused: " + e.getMessage()));
    }

    @Bean
    TomcatContextCustomizer connectorRefusalsAsProblems(JsonMapper json) {
        return context -> ConnectorRefusals.install((Host) context.getParent(), json);
    }

    @Bean
    TomcatConnectorCustomizer encodedSlashesPassThrough() {
        return connector -> connector.setEncodedSolidusHandling("passthrough");
    }
}
