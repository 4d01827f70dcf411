/**
 * JSX types for Preact authors: the widgets as intrinsic elements, with their attributes
 * checked (a wrong panel name or heads value is a type error) and `ref` typed as the
 * widget element. Opt in once, anywhere in the project:
 *
 * ```ts
 * import type {} from 'multiple-heads/preact';
 * ```
 *
 * Attribute values are text, as in HTML: `state={JSON.stringify(saved)}`. Listen to the
 * widgets' `change` and `ready` events through a ref, where `event.detail.state` is typed.
 */
import type { JSX, Ref } from 'preact';
import type { MultipleHeadsAttributesByTag, MultipleHeadsElementsByTag } from './multiple-heads.js';

type Tag = keyof MultipleHeadsElementsByTag;
/**
 * Preact's props of an element (those of a <div>, as Preact 10 and 11 both declare them),
 * with the widget's own attributes in place of any of the same name and `ref` typed.
 */
export type MultipleHeadsPreactProps<T extends Tag> =
  Omit<JSX.IntrinsicElements['div'], 'ref' | keyof MultipleHeadsAttributesByTag[T]>
  & MultipleHeadsAttributesByTag[T] & { ref?: Ref<MultipleHeadsElementsByTag[T]> };

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'mha-layer': MultipleHeadsPreactProps<'mha-layer'>;
      'mha-blend': MultipleHeadsPreactProps<'mha-blend'>;
      'mha-head-splitting': MultipleHeadsPreactProps<'mha-head-splitting'>;
      'mha-wo-mixing': MultipleHeadsPreactProps<'mha-wo-mixing'>;
      'mha-heads-questions': MultipleHeadsPreactProps<'mha-heads-questions'>;
      'mha-training': MultipleHeadsPreactProps<'mha-training'>;
      'mha-practice': MultipleHeadsPreactProps<'mha-practice'>;
    }
  }
}
