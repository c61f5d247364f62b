package dev.cairn.api.nodes;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link OneNodeReads} right behind the security filters, so a read is authorized before it is served.
 * Its node service is taken at the first request: filters are made with the web server, before the other
 * beans, and the service would bring the engine and its database up that early, ahead of settings given
 * later (a test's database URL, for one).
 */
@Configuration(proxyBeanMethods = false)
class OneNodeReadsConfiguration {

    @Bean
    FilterRegistrationBean<OneNodeReads> oneNodeReads(
            ObjectProvider<NodeService> nodes, ObjectProvider<JsonMapper> json) {
        FilterRegistrationBean<OneNodeReads> registration =
                new FilterRegistrationBean<>(new OneNodeReads(nodes::getObject, json::getObject));
        registration.addUrlPatterns("/api/v1/nodes/*");
        registration.setOrder(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1);
        return registration;
    }
}
