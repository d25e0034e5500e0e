import { useEffect, useRef, useState, type FormEvent } from "react";

/**
 * With JavaScript, Submit stays disabled while the form equals what is saved (spec 1 §2.7, §4.6).
 * Without JavaScript the server answers an unchanged Submit with a message instead. Pass `ref` as
 * the form's ref (ValidatedForm: formRef), `onChange` to the form, and `disabled` to Submit.
 */
export function useDirtyForm() {
  const ref = useRef<HTMLFormElement>(null);
  const initial = useRef<string | null>(null);
  const [state, setState] = useState<"server" | "clean" | "dirty">("server");
  const snapshot = () =>
    ref.current ? new URLSearchParams(new FormData(ref.current) as never).toString() : "";
  useEffect(() => {
    initial.current = snapshot();
    setState("clean");
  }, []);
  const onChange = (_: FormEvent) => setState(snapshot() === initial.current ? "clean" : "dirty");
  return { ref, onChange, disabled: state === "clean" };
}
