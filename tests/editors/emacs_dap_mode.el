;;; emacs_dap_mode.el --- glreplay under Emacs dap-mode, driven through dap-mode's own API -*- lexical-binding: t -*-
;;
;; Loaded by emacs_dap_mode.sh into `emacs --batch' (Debian 12: emacs 28.2, elpa-dap-mode 0.7).
;; It evaluates the README's Emacs configuration block (the text users copy, extracted from
;; README.md, so the test fails when the documented configuration stops working), then:
;;   * opens the shader file and adds a line breakpoint with `dap-breakpoint-add', its hit
;;     condition set with `dap-breakpoint-hit-condition' (the command a user runs);
;;   * starts the session with `dap-debug' on one of the README's templates: "glreplay: capture"
;;     pointed at a capture file (:program), or "glreplay: attach" at a running program (:pid);
;;   * waits (process filters run in `accept-process-output') for dap-mode to select the stopped
;;     thread's top frame, and checks the frame's source line and file;
;;   * reads the Locals scope and a variable's value with `dap-request' (scopes, variables) and
;;     evaluates an expression in the active frame;
;;   * steps with `dap-next' and checks the new line; disconnects with `dap-disconnect' and checks
;;     the adapter process ends.
;; Environment: GLR_README, GLR_TEMPLATE, GLR_KEY (:program or :pid) and GLR_KEY_VALUE, GLR_SHADER,
;; GLR_LINE, GLR_NEXT_LINE, GLR_HIT, GLR_VAR, GLR_VALUE (empty: any number), GLR_EXPR,
;; GLR_EXPR_VALUE.  Any failure exits 1 with one line saying what.

(require 'cl-lib)
(require 'subr-x)

(defun glr-fail (fmt &rest args)
  (princ (concat "emacs_dap_mode: FAIL: " (apply #'format fmt args) "\n") #'external-debugging-output)
  (kill-emacs 1))

(defun glr-env (name)
  (or (getenv name) (glr-fail "%s is not set" name)))

(defun glr-wait (what pred &optional seconds)
  "Run process filters until PRED is non-nil; fail after SECONDS (60)."
  (let ((deadline (+ (float-time) (or seconds 60))) v)
    (while (not (setq v (funcall pred)))
      (when (> (float-time) deadline)
        (glr-fail "timed out waiting for %s" what))
      (accept-process-output nil 0.05))
    v))

(defun glr-readme-config (readme)
  "The elisp block that follows README's `#### Emacs (dap-mode)' heading."
  (with-temp-buffer
    (insert-file-contents readme)
    (goto-char (point-min))
    (unless (re-search-forward "^#### Emacs (dap-mode)" nil t)
      (glr-fail "README.md has no \"#### Emacs (dap-mode)\" section"))
    (unless (re-search-forward "^```elisp\n" nil t)
      (glr-fail "README.md's Emacs section has no ```elisp block"))
    (let ((start (point)))
      (unless (re-search-forward "^```$" nil t)
        (glr-fail "README.md's elisp block is not closed"))
      (buffer-substring-no-properties start (match-beginning 0)))))

(let* ((readme (glr-env "GLR_README"))
       (template-name (glr-env "GLR_TEMPLATE"))
       (key (intern (glr-env "GLR_KEY")))
       (key-value (let ((v (glr-env "GLR_KEY_VALUE"))) (if (eq key :pid) (string-to-number v) v)))
       (hit (glr-env "GLR_HIT"))
       (shader (glr-env "GLR_SHADER"))
       (line (string-to-number (glr-env "GLR_LINE")))
       (next-line (string-to-number (glr-env "GLR_NEXT_LINE")))
       (var (glr-env "GLR_VAR"))
       (value (glr-env "GLR_VALUE"))
       (expr (glr-env "GLR_EXPR"))
       (expr-value (glr-env "GLR_EXPR_VALUE"))
       (config (glr-readme-config readme)))
  ;; The user's configuration, exactly as the README gives it.
  (with-temp-buffer
    (insert config)
    (condition-case e (eval-buffer)
      (error (glr-fail "evaluating README's configuration: %S" e))))
  (unless (assoc template-name dap-debug-template-configurations)
    (glr-fail "README's configuration registers no %S template" template-name))

  ;; A breakpoint on the line with a hit condition, with dap-mode's commands.
  (find-file shader)
  (goto-char (point-min))
  (forward-line (1- line))
  (dap-breakpoint-add)
  (cl-letf (((symbol-function 'read-string) (lambda (&rest _) hit)))
    (dap-breakpoint-hit-condition buffer-file-name (dap--get-breakpoint-at-point)))
  (let ((bps (gethash buffer-file-name (dap--get-breakpoints))))
    (unless (and (= (length bps) 1) (equal (plist-get (car bps) :hit-condition) hit))
      (glr-fail "dap-mode holds breakpoints %S" bps)))

  ;; Start the README's template on this capture or program (a user edits :program or :pid so).
  (let* ((template (copy-tree (cdr (assoc template-name dap-debug-template-configurations))))
         (session nil) (frame nil))
    (plist-put template key key-value)
    (dap-debug template)
    (setq session (glr-wait "the session" #'dap--cur-session 10))
    (setq frame (glr-wait "a stop with a selected stack frame"
                          (lambda ()
                            (unless (dap--session-running session)
                              (glr-fail "the session ended before stopping; see its stderr buffer: %s"
                                        (with-current-buffer (get-buffer-create (format "*%s stderr*" (dap--debug-session-name session)))
                                          (buffer-string))))
                            (dap--debug-session-active-frame session))))
    (let ((fline (gethash "line" frame))
          (fpath (gethash "path" (gethash "source" frame))))
      (unless (= fline line)
        (glr-fail "stopped on line %s, breakpoint on line %s" fline line))
      (unless (equal (file-truename fpath) (file-truename shader))
        (glr-fail "the stopped frame's source is %S, not %S" fpath shader))
      ;; dap-mode's thread state holds the stop's reason.
      (let ((reason (gethash (dap--debug-session-thread-id session) (dap--debug-session-thread-states session))))
        (unless (equal reason "breakpoint")
          (glr-fail "stopped with reason %S" reason)))
      (let* ((scopes (gethash "scopes" (dap-request session "scopes" :frameId (gethash "id" frame))))
             (locals (cl-find "Locals" scopes :key (lambda (s) (gethash "name" s)) :test #'equal))
             (vars (and locals (gethash "variables" (dap-request session "variables"
                                                                 :variablesReference (gethash "variablesReference" locals)))))
             (v (cl-find var vars :key (lambda (x) (gethash "name" x)) :test #'equal)))
        (unless v
          (glr-fail "no variable %s in Locals (%S)" var (mapcar (lambda (x) (gethash "name" x)) vars)))
        (unless (if (string-empty-p value)
                    (string-match-p "\\`-?[0-9.]+\\(e[-+]?[0-9]+\\)?\\'" (gethash "value" v))
                  (equal (gethash "value" v) value))
          (glr-fail "%s = %S, expected %S" var (gethash "value" v) (if (string-empty-p value) "a number" value)))
        (setq value (gethash "value" v))
        (let ((r (gethash "result" (dap-request session "evaluate" :expression expr
                                                :frameId (gethash "id" frame) :context "watch"))))
          (unless (equal r expr-value)
            (glr-fail "evaluate %s = %S, expected %S" expr r expr-value)))
        ;; A step: dap-mode selects the new top frame when the next stop arrives.
        (dap-next session)
        (let ((f2 (glr-wait "the stop after dap-next"
                            (lambda () (let ((f (dap--debug-session-active-frame session)))
                                         (and f (not (eq f frame)) f))))))
          (unless (= (gethash "line" f2) next-line)
            (glr-fail "dap-next went to line %s, expected %s" (gethash "line" f2) next-line)))
        (let ((proc (dap--debug-session-proc session)))
          (dap-disconnect session)
          (glr-wait "the adapter process to end" (lambda () (not (process-live-p proc))) 20)
          (unless (and (eq (process-status proc) 'exit) (= (process-exit-status proc) 0))
            (glr-fail "the adapter ended %s %s" (process-status proc) (process-exit-status proc))))
        (princ (format "emacs_dap_mode: Emacs %s, dap-mode, %s: stopped at hit %s of %s:%d (reason breakpoint), %s = %s, %s = %s, dap-next to line %d, adapter exited 0\n"
                       emacs-version template-name hit (file-name-nondirectory shader) line var value expr expr-value next-line)
               #'external-debugging-output)))))
(kill-emacs 0)
