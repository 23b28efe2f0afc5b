/**
 * User-visible messages. The spec's texts are kept verbatim; the rest are ours, in the same voice.
 * Services send them in `message`; the UI shows them as they are.
 */
export const MESSAGES = {
  nothingFound: 'ничего не найдено',
  changesSaved: 'изменения сохранены',
  somethingWentWrong: 'что-то пошло не так',
  fieldRequired: (label: string) => `не заполнено поле '${label}'`,
  /** The generic edit dialog's variant of the same message (spec §5). */
  fieldRequiredInDialog: (label: string) => `не заполнено поле: ${label}`,
  unknownMethod: (method: string) => `неизвестный метод '${method}'`,
  unknownField: (field: string) => `неизвестное поле '${field}'`,
  readOnlyField: (label: string) => `поле '${label}' заполняет система: его нельзя задать вручную`,
  invalidField: (field: string, detail: string) => `неверное значение поля '${field}': ${detail}`,
  invalidParams: 'неверные параметры запроса',
  notFound: 'запись не найдена',
  /** A reference to another service's row that its replica does not hold (issue 17). */
  refMissing: (label: string, id: number) => `${label}: нет такой записи (${id})`,
  accessDenied: 'недостаточно прав для этого действия',
  staffOnly: 'действие доступно только администратору или оператору',
  adminOnly: 'действие доступно только администратору',
  notAuthenticated: 'требуется вход в систему',
  sessionExpired: 'сессия истекла, войдите снова',
  badIdentity: 'запрос не подписан шлюзом',
  wrongCredentials: 'неверный email или пароль',
  tooManyAttempts: 'слишком много попыток входа, повторите позже',
  waitingAuth: 'Ожидаем подтверждения Вашей авторизации',
  fired: 'Ваш аккаунт заблокирован. Обратитесь к администратору.',
  serviceUnavailable: 'сервис временно недоступен, повторите попытку',
  /** The service got the request but its answer was lost: a retry is safe (the UI's idempotency key). */
  serviceNoAnswer: 'сервис не ответил; повторите попытку — действие не будет выполнено дважды',
  /** The same, for a call without an Idempotency-Key: nothing promises a retry is safe (issue 17). */
  serviceNoAnswerUnkeyed:
    'сервис не ответил; действие могло выполниться — проверьте результат, прежде чем повторять',
  unsupportedEncoding: 'запрос сжат неизвестным способом: поддерживаются gzip, deflate и br',
  unsupportedBody: 'тело запроса должно быть в формате JSON в кодировке UTF-8',
  invalidJson: 'тело запроса — не корректный JSON',
  bodyTooLarge: 'запрос слишком большой',
  bodyTooDeep: 'слишком глубокая вложенность данных в запросе',
  tooManyRequests: 'слишком много запросов, повторите позже',
  nothingToUpdate: 'нет изменений для сохранения',
  idempotencyKeyReused: 'этот запрос уже выполнен с другими данными; обновите страницу и повторите действие',
  invalidIdempotencyKey: "неверный заголовок 'Idempotency-Key'",
} as const;
