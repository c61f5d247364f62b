package dev.cairn.api.pages;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;

import dev.cairn.api.security.CairnPrincipal;
import dev.cairn.api.security.PageSessions;
import dev.cairn.api.web.Problems;
import dev.cairn.storage.errors.CairnException;

/**
 * What every page shows besides its own content: who is signed in and whether the controls are
 * theirs to use (a control a person may not use is not offered); and the page a Cairn error becomes
 * (the API's answer is a problem detail, a page's is a page saying the same).
 */
@ControllerAdvice(basePackageClasses = PageModel.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class PageModel {

    private final PageSessions sessions;

    PageModel(PageSessions sessions) {
        this.sessions = sessions;
    }

    @ModelAttribute
    void common(Model model) {
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        if (who != null && who.getPrincipal() instanceof CairnPrincipal principal) {
            model.addAttribute("me", principal);
            model.addAttribute("mayControl", sessions.mayControl());
        }
    }

    /**
     * A page's error is a page; the error of what a page's script fetches as JSON (the graph's data) is a
     * problem detail, as in the API, so that the script can show its detail rather than a page's HTML.
     */
    @ExceptionHandler(CairnException.class)
    Object problem(CairnException e, Model model, HttpServletRequest request, HttpServletResponse response) {
        Problems kind = Problems.of(e);
        if (wantsJson(request)) {
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(kind.status(), e.getMessage());
            problem.setTitle(kind.title());
            return ResponseEntity.status(kind.status())
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(problem);
        }
        common(model);
        response.setStatus(kind.status().value());
        model.addAttribute("title", kind.title());
        model.addAttribute("problem", e.getMessage());
        return "pages/problem";
    }

    private static boolean wantsJson(HttpServletRequest request) {
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        return accept != null && accept.contains(MediaType.APPLICATION_JSON_VALUE) && !accept.contains("text/html");
    }
}
