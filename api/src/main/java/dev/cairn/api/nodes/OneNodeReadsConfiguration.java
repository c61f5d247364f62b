package dev.cairn.api.nodes;

import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** {@link OneNodeReads} right behind the security filters, so a read is authorized before it is served. */
@Configuration(proxyBeanMethods = false)
class OneNodeReadsConfiguration {

    @Bean
    FilterRegistrationBean<OneNodeReads> oneNodeReads(NodeReader reader, JsonMapper json) {
        FilterRegistrationBean<OneNodeReads> registration =
                new FilterRegistrationBean<>(new OneNodeReads(reader, json));
        registration.addUrlPatterns("/api/v1/nodes/*");
        registration.setOrder(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1);
        return registration;
    }
}
