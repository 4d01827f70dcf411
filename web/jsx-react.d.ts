/**
 * JSX types for React (18 and 19) authors: the widgets as intrinsic elements, with their
 * attributes checked (a wrong panel name or heads value is a type error) and `ref`
 * typed as the widget element. Opt in once, anywhere in the project:
 *
 * ```ts
 * import type {} from 'multiple-heads/react';
 * ```
 *
 * Attribute values are text, as in HTML: `state={JSON.stringify(saved)}`. Listen to the
 * widgets' `change` and `ready` events through a ref (`ref.current.addEventListener`),
 * where `event.detail.state` is typed.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { MultipleHeadsAttributesByTag, MultipleHeadsElementsByTag } from './multiple-heads.js';

type Tag = keyof MultipleHeadsElementsByTag;
/** React's props of an element, with the widget's own attributes in place of any of the same name. */
export type MultipleHeadsReactProps<T extends Tag> =
  Omit<DetailedHTMLProps<HTMLAttributes<MultipleHeadsElementsByTag[T]>, MultipleHeadsElementsByTag[T]>, keyof MultipleHeadsAttributesByTag[T]>
  & MultipleHeadsAttributesByTag[T];

/** The widgets' intrinsic elements, one per tag. */
type MultipleHeadsIntrinsicElements = { [T in Tag]: MultipleHeadsReactProps<T> };

declare module 'react' {
  namespace JSX {
    // Every element of MultipleHeadsElementsByTag: a new widget needs no line here.
    interface IntrinsicElements extends MultipleHeadsIntrinsicElements {}
  }
}
