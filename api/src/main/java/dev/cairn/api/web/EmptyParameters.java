package dev.cairn.api.web;

import java.util.Arrays;
import java.util.Collection;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ValueConstants;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A query parameter with a default given empty ({@code ?days=}, {@code ?limit=}, {@code ?format=}) is
 * refused (400, naming it): Spring would take the default for it, before {@link TypedParameters}' editors
 * or the operation's own checks see it, so an empty value the OpenAPI document does not allow (not a
 * number, not one of an enum) would pass as the default. Leaving the parameter out is how a client asks
 * for the default. A text parameter whose default is empty ({@code ?label=}) takes an empty value as given.
 */
@Configuration(proxyBeanMethods = false)
class EmptyParameters implements WebMvcConfigurer, HandlerInterceptor {

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method)) {
            return true;
        }
        for (MethodParameter parameter : method.getMethodParameters()) {
            RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
            Class<?> type = parameter.getParameterType();
            if (param == null
                    || ValueConstants.DEFAULT_NONE.equals(param.defaultValue())
                    || (CharSequence.class.isAssignableFrom(type)
                            && param.defaultValue().isEmpty())
                    || Collection.class.isAssignableFrom(type)) {
                continue;
            }
            String name = param.name().isEmpty() ? parameter.getParameterName() : param.name();
            String[] values = name == null ? null : request.getParameterValues(name);
            if (values != null && Arrays.stream(values).anyMatch(String::isBlank)) {
                throw new InvalidInputException("parameter '" + name + "' is empty: give a value, or leave it out for"
                        + " its default (" + param.defaultValue() + ")");
            }
        }
        return true;
    }
}
