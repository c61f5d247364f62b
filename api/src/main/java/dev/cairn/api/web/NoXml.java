package dev.cairn.api.web;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The API never answers in XML: Spring adds an XML converter whenever Jackson's XML module is on the class
 * path, which any library can bring (S3Proxy, in the tests, does), and the API would then answer
 * {@code Accept: application/xml} with XML that its OpenAPI document does not describe. So a request that
 * accepts XML alone is refused (406), whatever the class path holds.
 */
@Configuration(proxyBeanMethods = false)
class NoXml implements WebMvcConfigurer {

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder converters) {
        converters.configureMessageConvertersList(list -> list.removeIf(NoXml::speaksXml));
    }

    private static boolean speaksXml(HttpMessageConverter<?> converter) {
        return converter.getSupportedMediaTypes().stream()
                .anyMatch(type ->
                        type.getSubtype().equals("xml") || type.getSubtype().endsWith("+xml"));
    }
}
