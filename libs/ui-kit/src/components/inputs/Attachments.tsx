import {
  AnchorButton,
  Button,
  ButtonGroup,
  ControlGroup,
  FileInput,
  InputGroup,
  Tag,
} from '@blueprintjs/core';
import { IMAGE_EXTENSIONS, UPLOAD_MESSAGES, type Attachment } from '@caravan/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../toaster';
import { loadsAsImage, uploadFiles } from '../../upload';

type ListProps = {
  value: Attachment[] | null | undefined;
  onChange(value: Attachment[]): void;
  disabled?: boolean;
  extensions?: readonly string[];
};

const live = (list: Attachment[]) => list.filter((a) => !a.deleted);
/** Spec §4: a removed file stays in the list, flagged deleted and moved to the end. */
const withDeleted = (list: Attachment[], index: number) => {
  const items = live(list);
  const removed = { ...items[index]!, deleted: true };
  return [...items.filter((_, i) => i !== index), ...list.filter((a) => a.deleted), removed];
};

function Uploader(props: {
  kind: 'image' | 'file';
  extensions?: readonly string[];
  onUploaded(a: Attachment[]): void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const accept = (props.kind === 'image' ? IMAGE_EXTENSIONS : props.extensions)
    ?.map((e) => `.${e}`)
    .join(',');
  return (
    <FileInput
      disabled={props.disabled || busy}
      text={
        busy ? t('common.loading') : t(props.kind === 'image' ? 'files.uploadImages' : 'files.uploadFiles')
      }
      buttonText={t('files.browse')}
      inputProps={{
        multiple: true,
        accept,
        'aria-label': t(props.kind === 'image' ? 'files.uploadImages' : 'files.uploadFiles'),
      }}
      onInputChange={async (e) => {
        const input = e.currentTarget as HTMLInputElement;
        const files = Array.from(input.files ?? []);
        input.value = '';
        if (!files.length) return;
        setBusy(true);
        const reply = await uploadFiles(
          props.kind,
          files,
          props.kind === 'image' ? IMAGE_EXTENSIONS : props.extensions,
        );
        setBusy(false);
        if (!reply.ok) return void toast(reply.message, 'danger');
        props.onUploaded(reply.result.map((u) => ({ file: u.file, name: u.name, deleted: false })));
      }}
    />
  );
}

/** One picture with its tools: move left (in a list), open in a new tab, delete. */
function ImageTile(props: {
  file: string;
  name?: string;
  disabled?: boolean;
  /** In a list: the move-left button, disabled for the first picture (no onMoveLeft). */
  movable?: boolean;
  onMoveLeft?(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  return (
    <figure className="caravan-image" data-testid="image-item">
      <img src={props.file} alt={props.name ?? ''} />
      <ButtonGroup variant="minimal">
        {props.movable ? (
          <Button
            icon="arrow-left"
            aria-label={t('files.moveLeft')}
            disabled={props.disabled || !props.onMoveLeft}
            onClick={props.onMoveLeft}
          />
        ) : null}
        <AnchorButton
          icon="share"
          aria-label={t('files.open')}
          href={props.file}
          target="_blank"
          rel="noreferrer"
        />
        <Button
          icon="trash"
          aria-label={t('files.delete')}
          disabled={props.disabled}
          onClick={props.onDelete}
        />
      </ButtonGroup>
    </figure>
  );
}

/**
 * Image list (spec §2): upload several, add by link (a link that does not load as an image is removed
 * with the spec's message), move left, delete, open in a new tab.
 */
export function ImageList({ value, onChange, disabled }: ListProps) {
  const { t } = useTranslation();
  const list = value ?? [];
  const items = live(list);
  const [link, setLink] = useState('');
  const addLink = async () => {
    const url = link.trim();
    if (!url) return;
    setLink('');
    const next = [...items, { file: url, deleted: false }, ...list.filter((a) => a.deleted)];
    onChange(next);
    if (!(await loadsAsImage(url))) {
      void toast(UPLOAD_MESSAGES.notAnImage(url), 'danger');
      onChange(next.filter((a) => a.file !== url));
    }
  };
  const moveLeft = (i: number) => {
    const next = [...items];
    [next[i - 1], next[i]] = [next[i]!, next[i - 1]!];
    onChange([...next, ...list.filter((a) => a.deleted)]);
  };
  return (
    <div className="caravan-images">
      <div className="caravan-image-grid">
        {items.map((a, i) => (
          <ImageTile
            key={`${a.file}-${i}`}
            file={a.file}
            name={a.name}
            disabled={disabled}
            movable
            onMoveLeft={i === 0 ? undefined : () => moveLeft(i)}
            onDelete={() => onChange(withDeleted(list, i))}
          />
        ))}
      </div>
      {!disabled && (
        <ControlGroup className="caravan-image-tools">
          <Uploader
            kind="image"
            onUploaded={(added) => onChange([...items, ...added, ...list.filter((a) => a.deleted)])}
          />
          <InputGroup
            placeholder={t('files.imageLink')}
            aria-label={t('files.imageLink')}
            value={link}
            onValueChange={setLink}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void addLink();
              }
            }}
          />
          <Button icon="link" text={t('files.addLink')} onClick={() => void addLink()} />
        </ControlGroup>
      )}
    </div>
  );
}

/** A single image (a photo link or an uploaded one), replaceable and removable. */
export function SingleImage(props: {
  value: string | null | undefined;
  onChange(value: string | null): void;
  disabled?: boolean;
}) {
  return (
    <div className="caravan-images">
      {props.value && (
        <ImageTile file={props.value} disabled={props.disabled} onDelete={() => props.onChange(null)} />
      )}
      {!props.disabled && (
        <Uploader kind="image" onUploaded={(added) => props.onChange(added[0]?.file ?? null)} />
      )}
    </div>
  );
}

/** File list: upload (optionally only some extensions), download, delete (flagged, kept at the end). */
export function FileList({ value, onChange, disabled, extensions }: ListProps) {
  const list = value ?? [];
  const items = live(list);
  return (
    <div className="caravan-files">
      {items.map((a, i) => (
        <Tag
          key={`${a.file}-${i}`}
          large
          minimal
          icon="document"
          onRemove={disabled ? undefined : () => onChange(withDeleted(list, i))}
        >
          <a href={a.file} target="_blank" rel="noreferrer">
            {a.name ?? a.file}
          </a>
        </Tag>
      ))}
      {!disabled && (
        <Uploader
          kind="file"
          extensions={extensions}
          onUploaded={(added) => onChange([...items, ...added, ...list.filter((a) => a.deleted)])}
        />
      )}
      {extensions && (
        <div className="bp6-form-helper-text">{UPLOAD_MESSAGES.mustHaveExtension(extensions)}</div>
      )}
    </div>
  );
}
